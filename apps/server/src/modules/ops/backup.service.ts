import { sql } from "kysely";
import type { DatabaseHandle } from "../../db/connection.js";
import { encodeBackup } from "./backup-file.js";

export class BackupUnsupportedError extends Error {
  constructor() {
    super("Backups through Tally are for the embedded database; with PostgreSQL (DATABASE_URL) use pg_dump and pg_restore.");
    this.name = "BackupUnsupportedError";
  }
}

/** A whole backup file of an open embedded database, taken between transactions. */
export async function takeBackup(database: DatabaseHandle, now: Date): Promise<Buffer> {
  if (!database.dumpDataDir) throw new BackupUnsupportedError();
  const tarball = await database.dumpDataDir();
  const { rows } = await sql<{ name: string | null }>`select max(name) as name from kysely_migration`.execute(database.db);
  return encodeBackup(tarball, { createdAt: now.toISOString(), latestMigration: rows[0]?.name ?? null });
}
