import { describeLoadedDemo, loadDemoIntoEmptyDatabase, runAfterSeed } from "../db/seed/first-run.js";
import { evaluateDemoAlerts } from "../modules/alerts/demo-alerts.service.js";
import { CliError } from "./cli-errors.js";
import type { CliCommand } from "./cli-io.js";
import { parseOptions } from "./parse-options.js";

export const seedDemoCommand: CliCommand<void> = {
  async prepare(args) {
    parseOptions("seed:demo", args, []);
  },
  async run({ db, config, io }) {
    const loaded = await loadDemoIntoEmptyDatabase(db, config);
    if (!loaded) {
      throw new CliError("The database is not empty: seed:demo only loads demo data into a database without users, schools or students.");
    }
    for (const line of describeLoadedDemo(loaded)) io.out(line);
    for (const line of await runAfterSeed(loaded.result, (seeded) => evaluateDemoAlerts(db, seeded))) io.out(line);
  },
};
