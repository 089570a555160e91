import { test } from "vitest";
import { openDatabase } from "../connection.js";
import { migrateToLatest } from "../migrate.js";
import { seedLarge } from "./large-seed.js";
test("exp", async () => {
  for (const mode of ["weekly", "unsorted", "sorted", "weekly", "unsorted"] as const) {
    const database = await openDatabase({});
    await migrateToLatest(database.db);
    const cpu = process.cpuUsage();
    const t = performance.now();
    const steps: string[] = [];
    await seedLarge(database.db, { students: 15000, mode, onProgress: (s) => steps.push(`${s}@${((performance.now() - t) / 1000).toFixed(1)}`) });
    const c = process.cpuUsage(cpu);
    console.log(mode, "wall", ((performance.now() - t) / 1000).toFixed(1), "cpu", ((c.user + c.system) / 1e6).toFixed(1), steps.join(" | "));
    await database.close();
  }
}, 900_000);
