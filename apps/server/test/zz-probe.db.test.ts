import { test } from "vitest";
import { openDatabase } from "../src/db/connection.js";
import { migrateToLatest } from "../src/db/migrate.js";
test("probe", async () => {
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const d = await openDatabase({ poolSize: 4 });
    const t1 = performance.now();
    await migrateToLatest(d.db);
    const t2 = performance.now();
    const dump = await d.dumpDataDir!();
    const t3 = performance.now();
    await d.close();
    console.log(`open ${Math.round(t1 - t0)} migrate ${Math.round(t2 - t1)} dump ${Math.round(t3 - t2)} size ${dump.length}`);
  }
}, 120000);
