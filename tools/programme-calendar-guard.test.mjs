import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Which week a day is in is computed in one place, packages/contract/src/programme-calendar.ts
// (issue 41 found two formulas in seven files that disagreed). This guard reads the source (not
// the tests, which work out their expected dates on their own) for the shapes week arithmetic
// takes: "/ 7", "7 *", "* 7", "% 7", "(week - 1)", a week in milliseconds, a week's last day
// as 6 days on.

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
const ROOTS = ["apps/server/src", "apps/web/src", "packages/contract/src", "bench/src"];
const CALENDAR = "packages/contract/src/programme-calendar.ts";

const WEEK_ARITHMETIC = [
  /\/\s*7\b/,
  /(?<![\w.])7\s*\*/,
  /\*\s*7\b(?!\s*[\d.])/,
  /%\s*7\b/,
  /\(\s*\w*week\w*\s*-\s*1\s*\)/i,
  /\bWEEK_MS\b/,
  /addDays\([^()]*,\s*-?[67]\s*\)/,
];

/** Lines that look like week arithmetic and are not: each says why. */
const ALLOWED = [
  { file: "apps/server/src/db/seed/demo-data.ts", text: "0.003 * (week - 1)", why: "the demo's attendance drifts down a little each week: a rate, not a date" },
  { file: "apps/server/src/db/seed/large-seed.ts", text: "st.n * 7 + 3", why: "a hash of the student number" },
  { file: "bench/src/flag-files.ts", text: "h % 7 === 0", why: "a hash picks the students with past-due assessments" },
  { file: "apps/server/src/db/seed/large-seed.ts", text: "${lit((SWITCH_WEEK - 1) * 7)}", why: "SQL that generates the synthetic data set in the database" },
  { file: "apps/server/src/db/seed/large-seed.ts", text: "p.start_date + (wk.week - 1) * 7", why: "SQL that generates the synthetic data set in the database" },
  { file: "apps/server/src/db/seed/large-seed.ts", text: "start_date + (week - 1) * 7", why: "SQL that generates the synthetic data set in the database" },
  { file: "apps/server/src/modules/digests/digests.service.ts", text: "const WEEK_MS = 7 * 86_400_000;", why: "a duration: the last seven days before now" },
  { file: "apps/server/src/modules/digests/digests.service.ts", text: "now.getTime() - WEEK_MS", why: "a duration: the last seven days before now" },
];

function sourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(join(REPO, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && entry.name !== "dist") files.push(...sourceFiles(path));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
      files.push(path);
    }
  }
  return files;
}

/** Lines of code (comments left out) outside the calendar that look like week arithmetic. */
function weekArithmetic() {
  const found = [];
  for (const file of ROOTS.flatMap(sourceFiles)) {
    if (file === CALENDAR) continue;
    readFileSync(join(REPO, file), "utf8")
      .split("\n")
      .forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, "").replace(/^\s*\*.*$/, "");
        if (WEEK_ARITHMETIC.some((p) => p.test(code))) found.push({ file, line: i + 1, text: line.trim() });
      });
  }
  return found;
}

describe("the programme calendar is the only place that computes weeks", () => {
  const found = weekArithmetic();

  it("finds week arithmetic only in packages/contract/src/programme-calendar.ts", () => {
    const stray = found.filter((f) => !ALLOWED.some((a) => a.file === f.file && f.text.includes(a.text)));
    expect(stray.map((f) => `${f.file}:${f.line}: ${f.text}`)).toEqual([]);
  });

  it("keeps no exception that no longer matches a line", () => {
    const stale = ALLOWED.filter((a) => !found.some((f) => a.file === f.file && f.text.includes(a.text)));
    expect(stale).toEqual([]);
  });

  it("would catch each formula the calendar replaced", () => {
    const formulas = [
      "return Math.max(1, Math.ceil(days / 7));",
      "const weekStart = addDays(cohort.startDate, 7 * (week - 1));",
      "return dayMonth(addDays(startDate, (week - 1) * 7));",
      "return new Date(Date.parse(`${cohortStart}T00:00:00Z`) + week * 7 * DAY_MS);",
      "const week = Math.floor((Date.parse(day) - start) / (7 * DAY_MS)) + 1;",
      "const weekday = (new Date(day).getUTCDay() + 6) % 7;",
      "const weekEnd = addDays(plan.weekStart, 6);",
    ];
    for (const formula of formulas) expect(WEEK_ARITHMETIC.some((p) => p.test(formula)), formula).toBe(true);
  });
});
