import type { DatabaseHandle } from "../../db/connection.js";
import { appliedMigrations } from "../../db/migrate.js";
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
  const latestMigration = (await appliedMigrations(database.db)).at(-1) ?? null;
  return encodeBackup(tarball, { createdAt: now.toISOString(), latestMigration });
}
