import type { CliCommand } from "./cli-io.js";
import { parseOptions } from "./parse-options.js";

/** Opening the database migrates it; this command only reports what was applied. */
export const migrateCommand: CliCommand<void> = {
  async prepare(args) {
    parseOptions("migrate", args, []);
  },
  async run({ applied, io }) {
    io.out(applied.length > 0 ? `Applied migrations: ${applied.join(", ")}.` : "The database is up to date.");
  },
};
