import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { openDatabase } from "../db/connection.js";
import { migrateToLatest } from "../db/migrate.js";
import { acquireDataDirLock, DataDirLockedError } from "../lib/data-dir-lock.js";
import { type BackupHeader, BadBackupError, decodeBackup } from "../modules/ops/backup-file.js";
import { CliError, UsageError } from "./cli-errors.js";
import type { StandaloneCommand } from "./cli-io.js";
import { parseOptions } from "./parse-options.js";

const NAME = "restore";

interface RestoreArgs {
  path: string;
  header: BackupHeader;
  tarball: Buffer;
}

/**
 * Replaces the embedded database with a backup's. The backup is unpacked into a folder of its
 * own and opened and migrated there; only then is the current folder moved aside (kept, not
 * deleted) and the restored one put in its place. Any failure before that leaves DATA_DIR as it was.
 */
export const restoreCommand: StandaloneCommand<RestoreArgs> = {
  async prepare(args) {
    const o = parseOptions(NAME, args, ["in"]);
    if (o.in === undefined || o.in === "") throw new UsageError("--in is required.", NAME);
    const path = resolve(o.in);
    if (!existsSync(path)) throw new CliError(`${path} does not exist.`);
    try {
      return { path, ...decodeBackup(readFileSync(path)) };
    } catch (err) {
      if (err instanceof BadBackupError) throw new CliError(`${path}: ${err.message}`);
      throw new CliError(`Could not read ${path}: ${(err as Error).message}`);
    }
  },
  async runStandalone({ config, io }, { path, header, tarball }) {
    if (config.databaseUrl) {
      throw new CliError("restore is for the embedded database; with PostgreSQL (DATABASE_URL) use pg_restore or psql.");
    }
    let release: () => void;
    try {
      release = acquireDataDirLock(config.dataDir, "cli restore");
    } catch (err) {
      if (!(err instanceof DataDirLockedError)) throw err;
      throw new CliError(
        `Restore replaces the database, so it cannot run while "${err.holder.command}" (pid ${err.holder.pid}) uses ${config.dataDir}: ` +
          "stop it first, then run restore again. (A backup, by contrast, can be taken while the server runs.)",
      );
    }
    const live = join(config.dataDir, "pglite");
    const staging = join(config.dataDir, "pglite.restoring");
    try {
      rmSync(staging, { recursive: true, force: true });
      let applied: string[];
      try {
        const unpacked = await PGlite.create(staging, { loadDataDir: new Blob([new Uint8Array(tarball)]) });
        await unpacked.close();
        const restored = await openDatabase({ dataDir: staging, sharedBuffers: config.pgliteSharedBuffers });
        try {
          applied = await migrateToLatest(restored.db);
        } finally {
          await restored.close();
        }
      } catch (err) {
        rmSync(staging, { recursive: true, force: true });
        throw new CliError(
          `The backup ${path} could not be opened (${(err as Error).message}); the database in ${config.dataDir} is unchanged.`,
        );
      }
      let kept: string | undefined;
      if (existsSync(live)) {
        kept = join(config.dataDir, `pglite.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`);
        renameSync(live, kept);
      }
      renameSync(staging, live);
      io.out(`Restored the backup of ${header.createdAt} from ${path} into ${config.dataDir}.`);
      if (applied.length > 0) io.out(`Applied migrations the backup lacked: ${applied.join(", ")}.`);
      if (kept) io.out(`The previous database is kept in ${kept}; delete it once the restored one is checked.`);
    } finally {
      release();
    }
  },
};
