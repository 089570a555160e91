import { type Kysely, type Migration, Migrator } from "kysely";
import { migrate001 } from "./migrations/001-initial-schema.js";
import type { Database } from "./schema.js";

// Listed in code rather than read from a folder, so the build output needs no file scan.
const migrations: Record<string, Migration> = {
  "001-initial-schema": { up: migrate001 },
};

/** Applies every pending migration; safe to call from several instances at once. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
