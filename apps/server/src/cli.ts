import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { CliError, UsageError } from "./cli/cli-errors.js";
import { backupCommand } from "./cli/backup.js";
import type { CliCommand, CliIo, StandaloneCommand } from "./cli/cli-io.js";
import { createUserCommand } from "./cli/create-user.js";
import { migrateCommand } from "./cli/migrate.js";
import { restoreCommand } from "./cli/restore.js";
import { seedDemoCommand } from "./cli/seed-demo.js";
import { seedLargeCommand } from "./cli/seed-large.js";
import { terminalIo } from "./cli/terminal.js";
import { usage } from "./cli/usage.js";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { openConfiguredDatabase } from "./db/configured-database.js";
import { DataDirLockedError } from "./lib/data-dir-lock.js";

const COMMANDS: Record<string, CliCommand<unknown> | StandaloneCommand<unknown>> = {
  migrate: migrateCommand,
  "create-user": createUserCommand as CliCommand<unknown>,
  "seed:demo": seedDemoCommand,
  "seed:large": seedLargeCommand as CliCommand<unknown>,
  backup: backupCommand as StandaloneCommand<unknown>,
  restore: restoreCommand as StandaloneCommand<unknown>,
};

/**
 * Runs one admin command and returns the exit code: 0 done, 1 failed or refused, 2 bad
 * arguments. It never exits the process, so tests call it directly.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    io.err(usage());
    return 2;
  }
  if (name === "help" || name === "--help" || name === "-h") {
    io.out(usage(args[0]));
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`Unknown command "${name}".\n\n${usage()}`);
    return 2;
  }
  if (args.includes("--help") || args.includes("-h")) {
    io.out(usage(name));
    return 0;
  }
  let opened: Awaited<ReturnType<typeof openConfiguredDatabase>> | undefined;
  try {
    const prepared = await command.prepare(args, io);
    const config = loadConfig(io.env);
    if ("runStandalone" in command) {
      await command.runStandalone({ config, io }, prepared);
      return 0;
    }
    opened = await openDatabase(io, config, name);
    await command.run({ db: opened.database.db, config, io, applied: opened.applied }, prepared);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`${err.message}\n\n${usage(err.command)}`);
      return err.exitCode;
    }
    if (err instanceof CliError) {
      io.err(err.message);
      return err.exitCode;
    }
    if (err instanceof ConfigError || err instanceof DataDirLockedError) {
      io.err(err.message);
      return 1;
    }
    // Not the user's doing: keep the details for whoever debugs it.
    io.err(`cli ${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return 1;
  } finally {
    await opened?.close();
  }
}

async function openDatabase(io: CliIo, config: Config, name: string) {
  try {
    return await (io.openDatabase ?? openConfiguredDatabase)(config, `cli ${name}`);
  } catch (err) {
    if (err instanceof DataDirLockedError) throw err;
    // A wrong DATABASE_URL or an unreadable DATA_DIR: the message says enough.
    throw new CliError(`Could not open the database: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function invokedDirectly(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  const code = await main(process.argv.slice(2), terminalIo());
  // The embedded database's worker and pg's pool are closed by now; exit without waiting on stdin.
  process.exit(code);
}
