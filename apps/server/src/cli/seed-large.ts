import { LargeSeedExistsError, seedLarge } from "../db/seed/large-seed.js";
import { CliError } from "./cli-errors.js";
import type { CliCommand } from "./cli-io.js";
import { parseOptions, positiveInt } from "./parse-options.js";

const NAME = "seed:large";

interface SeedLargeArgs {
  students: number;
  schools?: number;
}

export const seedLargeCommand: CliCommand<SeedLargeArgs> = {
  async prepare(args) {
    const o = parseOptions(NAME, args, ["students", "schools"]);
    return {
      students: o.students === undefined ? 50_000 : positiveInt(NAME, "students", o.students, 2_000_000),
      schools: o.schools === undefined ? undefined : positiveInt(NAME, "schools", o.schools, 10_000),
    };
  },
  async run({ db, io }, args) {
    const started = performance.now();
    const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
    try {
      const s = await seedLarge(db, { ...args, onProgress: (step) => io.out(`[${elapsed()}] ${step}`) });
      io.out(
        `Added ${s.schools} schools, ${s.cohorts} cohorts, ${s.teams} teams, ${s.students} students, ` +
          `${s.attendanceRecords} attendance records and ${s.weeklyData} weekly rows in ${s.seconds.toFixed(1)} s.`,
      );
    } catch (err) {
      if (err instanceof LargeSeedExistsError) throw new CliError(err.message);
      throw err;
    }
  },
};
