import type { AlertRule } from "@tally/contract";
import { attendanceBand } from "./attendance-band.js";
import { consecutiveMisses } from "./consecutive-misses.js";
import { flagsRule } from "./flags-rule.js";
import { lowHours } from "./low-hours.js";
import { missingFromReports } from "./missing-from-reports.js";
import type { RuleEvaluator } from "./rule-facts.js";
import { targetOutOfReach } from "./target-out-of-reach.js";

/** Each rule's pure evaluator, by the rule's name. */
export const RULE_EVALUATORS: { [R in AlertRule]: RuleEvaluator<R> } = {
  attendance_band: attendanceBand,
  consecutive_misses: consecutiveMisses,
  target_out_of_reach: targetOutOfReach,
  flags: flagsRule,
  missing_from_reports: missingFromReports,
  low_hours: lowHours,
};
