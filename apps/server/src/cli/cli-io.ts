import type { Kysely } from "kysely";
import type { Config } from "../config.js";
import type { openConfiguredDatabase } from "../db/configured-database.js";
import type { Database } from "../db/schema.js";

/** Everything a command touches outside itself, so that tests can run it in-process. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** The environment to read configuration from; absent = this process's. */
  env?: Record<string, string | undefined>;
  /** Asks for a secret on the terminal without echo; absent when there is no terminal. */
  readSecret?: (prompt: string) => Promise<string>;
  /** Opens and migrates the database; tests replace it to work in their own schema. */
  openDatabase?: typeof openConfiguredDatabase;
}

export interface CommandContext {
  db: Kysely<Database>;
  config: Config;
  io: CliIo;
  /** Migrations applied when the database was opened. */
  applied: string[];
}

export interface CliCommand<P> {
  /** Checks the arguments and asks for anything missing, before the database is opened. */
  prepare(args: string[], io: CliIo): Promise<P>;
  run(ctx: CommandContext, prepared: P): Promise<void>;
}

/** A command that opens the database its own way, or not at all (backup, restore). */
export interface StandaloneCommand<P> {
  prepare(args: string[], io: CliIo): Promise<P>;
  runStandalone(ctx: { config: Config; io: CliIo }, prepared: P): Promise<void>;
}
