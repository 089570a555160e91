import { oneDecimal, percentWords, weekWords } from "./meeting-words.js";
import type { RuleEvaluator } from "./rule-facts.js";

/**
 * Reported hours so far against the cohort's expected hours spread evenly over its weeks:
 * expected to date = total × latestWeek / totalWeeks. Below percentOfExpected % of that is level
 * 1, below half of that threshold level 2. Weeks without a reported figure count as 0 hours.
 */
export const lowHours: RuleEvaluator<"low_hours"> = (student, cohort, params) => {
  if (cohort.totalExpectedHours === null || cohort.latestWeek === null || cohort.totalWeeks <= 0) return null;
  const latest = cohort.latestWeek;
  const total = cohort.totalExpectedHours;
  const weeksSoFar = Math.min(latest, cohort.totalWeeks);
  const expected = (total * weeksSoFar) / cohort.totalWeeks;
  if (expected <= 0) return null;
  const reported = student.weeks.filter((w) => w.week <= latest).reduce((sum, w) => sum + (w.hoursReported ?? 0), 0);
  // Compared as products of the inputs so that exactly the threshold is not "below" it.
  const under = (share: number) =>
    reported * 100 * cohort.totalWeeks < total * weeksSoFar * params.percentOfExpected * share;
  if (!under(1)) return null;
  const level = under(0.5) ? 2 : 1;
  return {
    level,
    evidence:
      `Reported ${oneDecimal(reported)} h of the ${oneDecimal(expected)} h expected by the end of ${weekWords(latest, cohort.startDate)} ` +
      `(${percentWords((reported / expected) * 100)}, under ${percentWords(params.percentOfExpected)})`,
    details: { level, hoursReported: oneDecimal(reported), hoursExpected: oneDecimal(expected), weeks: [latest] },
  };
};
