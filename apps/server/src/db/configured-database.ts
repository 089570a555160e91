import { join } from "node:path";
import type { Config } from "../config.js";
import { acquireDataDirLock } from "../lib/data-dir-lock.js";
import { type DatabaseHandle, openDatabase } from "./connection.js";
import { migrateToLatest } from "./migrate.js";

/**
 * Opens the configured database for a process (server or CLI command), taking the
 * DATA_DIR lock first when it is the embedded one, and migrates it.
 */
export async function openConfiguredDatabase(
  config: Config,
  command: string,
): Promise<{ database: DatabaseHandle; applied: string[]; close(): Promise<void> }> {
  const release = config.databaseUrl ? () => {} : acquireDataDirLock(config.dataDir, command);
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.databaseUrl ? undefined : join(config.dataDir, "pglite"),
      sharedBuffers: config.pgliteSharedBuffers,
    });
    const applied = await migrateToLatest(database.db);
    return {
      database,
      applied,
      async close() {
        await database.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}
