import type { AlertDetails } from "@tally/contract";
import { plural, weekStartWords, weekWords } from "./meeting-words.js";
import type { RuleEvaluator, WeekFact } from "./rule-facts.js";

/**
 * K or more flags in the latest week (level = the count), or one flag code in M weeks in a row
 * ending at the latest week (level = the weeks). Both may hold: the alert takes the higher level
 * and its evidence names both.
 */
export const flagsRule: RuleEvaluator<"flags"> = (student, cohort, params) => {
  if (cohort.latestWeek === null) return null;
  const latest = cohort.latestWeek;
  const byWeek = new Map<number, WeekFact>(student.weeks.map((w) => [w.week, w]));
  const latestFlags = byWeek.get(latest)?.flags ?? [];
  if (latestFlags.length === 0) return null;

  const parts: string[] = [];
  const flags: NonNullable<AlertDetails["flags"]> = [];
  const weeks = new Set<number>();
  let level = 0;

  if (latestFlags.length >= params.perWeek) {
    level = latestFlags.length;
    weeks.add(latest);
    for (const f of latestFlags) flags.push({ week: latest, code: f.code, text: f.text });
    parts.push(`${plural(latestFlags.length, "flag")} in ${weekWords(latest, cohort.startDate)}: ${latestFlags.map((f) => `${f.code} (${f.text})`).join(", ")}`);
  }

  for (const code of new Set(latestFlags.map((f) => f.code))) {
    const run: number[] = [];
    for (let week = latest; week >= 1; week--) {
      const flag = byWeek.get(week)?.flags.find((f) => f.code === code);
      if (!flag) break;
      run.unshift(week);
    }
    if (run.length < params.sameCodeWeeks) continue;
    level = Math.max(level, run.length);
    for (const week of run) {
      weeks.add(week);
      if (!flags.some((f) => f.week === week && f.code === code)) {
        const flag = byWeek.get(week)?.flags.find((f) => f.code === code);
        if (flag) flags.push({ week, code, text: flag.text });
      }
    }
    const text = latestFlags.find((f) => f.code === code)?.text ?? "";
    parts.push(`${code} (${text}) ${run.length} weeks in a row: weeks ${run.join(", ")} (from ${weekStartWords(run[0] as number, cohort.startDate)})`);
  }

  if (level === 0) return null;
  // Codes compared as plain text: localeCompare was most of this rule's time on the bench set.
  flags.sort((a, b) => a.week - b.week || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return {
    level,
    evidence: `Flagged: ${parts.join("; ")}`,
    details: { level, flags, weeks: [...weeks].sort((a, b) => a - b) },
  };
};
