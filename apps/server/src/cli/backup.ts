import { existsSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { openConfiguredDatabase } from "../db/configured-database.js";
import { BackupUnsupportedError, takeBackup } from "../modules/ops/backup.service.js";
import { ControlSocketError, requestBackup } from "../modules/ops/control-socket.js";
import { CliError, UsageError } from "./cli-errors.js";
import type { StandaloneCommand } from "./cli-io.js";
import { parseOptions } from "./parse-options.js";

const NAME = "backup";

/**
 * Writes a backup of the embedded database. While the server runs, the server takes it
 * (through its control socket, between transactions); otherwise this process opens DATA_DIR.
 */
export const backupCommand: StandaloneCommand<{ out: string }> = {
  async prepare(args) {
    const o = parseOptions(NAME, args, ["out"]);
    if (o.out === undefined || o.out === "") throw new UsageError("--out is required.", NAME);
    const out = resolve(o.out);
    if (existsSync(out)) throw new CliError(`${out} already exists: choose another name, or delete it first.`);
    if (!existsSync(dirname(out)) || !statSync(dirname(out)).isDirectory()) {
      throw new CliError(`The folder ${dirname(out)} does not exist.`);
    }
    return { out };
  },
  async runStandalone({ config, io }, { out }) {
    if (config.databaseUrl) throw new CliError(new BackupUnsupportedError().message);
    if (!existsSync(join(config.dataDir, "pglite", "PG_VERSION"))) {
      throw new CliError(`There is no embedded database in ${config.dataDir} (DATA_DIR) to back up.`);
    }
    let file: Buffer | undefined;
    let source = "the running server took it";
    try {
      file = await requestBackup(config.dataDir);
    } catch (err) {
      if (err instanceof ControlSocketError) throw new CliError(err.message);
      throw err;
    }
    if (!file) {
      source = "no server was running";
      const opened = await (io.openDatabase ?? openConfiguredDatabase)(config, "cli backup");
      try {
        file = await takeBackup(opened.database, new Date());
      } finally {
        await opened.close();
      }
    }
    // Written beside the target and renamed, so a file named --out is always a whole backup.
    const partial = `${out}.partial`;
    try {
      writeFileSync(partial, file, { mode: 0o600, flag: "wx" });
      renameSync(partial, out);
    } catch (err) {
      rmSync(partial, { force: true });
      throw new CliError(`Could not write ${out}: ${(err as Error).message}`);
    }
    io.out(`Backed up the embedded database to ${out} (${megabytes(file.byteLength)}; ${source}).`);
  },
};

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
