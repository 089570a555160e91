import { weekWords } from "./meeting-words.js";
import type { RuleEvaluator } from "./rule-facts.js";

/**
 * A member of the cohort in none of the latest week's imported files, and (when the rule says
 * so) CRM sessions still "Enrolled" after that week ended. Level 1 for either, 2 for both.
 */
export const missingFromReports: RuleEvaluator<"missing_from_reports"> = (student, cohort, params) => {
  if (cohort.latestWeek === null) return null;
  const week = weekWords(cohort.latestWeek, cohort.startDate);
  const parts: string[] = [];
  if (!student.inLatestWeekReports) parts.push(`In none of the reports of ${week}`);
  if (params.crmEnrolled && student.crmEnrolledAfterWeek) parts.push(`CRM session still "Enrolled" after ${week} ended`);
  if (parts.length === 0) return null;
  return {
    level: parts.length,
    evidence: parts.join("; "),
    details: { level: parts.length, weeks: [cohort.latestWeek] },
  };
};
