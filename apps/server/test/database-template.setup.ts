import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { testDatabaseUrl } from "../src/config.js";
import { openDatabase } from "../src/db/connection.js";
import { migrateToLatest } from "../src/db/migrate.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A tarball of a freshly migrated embedded database; absent on PostgreSQL. */
    databaseTemplate?: string;
  }
}

/**
 * Global set-up of the database suites on the embedded engine: one database migrated once and
 * dumped to a file, which every suite's database starts from (openTestDatabase). A fresh PGlite
 * runs initdb and the migrations, ~4 s per suite on a 2-core machine; from this copy, ~1 s.
 */
export default async function setup(project: TestProject) {
  if (testDatabaseUrl()) return;
  const database = await openDatabase({});
  let tarball: Uint8Array;
  try {
    await migrateToLatest(database.db);
    tarball = await database.dumpDataDir!(false);
  } finally {
    await database.close();
  }
  const dir = mkdtempSync(join(tmpdir(), "tally-db-template-"));
  const file = join(dir, "migrated.tar");
  writeFileSync(file, tarball);
  project.provide("databaseTemplate", file);
  return () => rmSync(dir, { recursive: true, force: true });
}
