import type { AlertRule } from "@tally/contract";
import type { MeetingFact, RuleEvaluator } from "./rule-facts.js";

// STAND-IN until the rule evaluators land: only consecutive misses is judged (the episode tests
// need one real rule); the others raise nothing.

const missed = (m: MeetingFact, lateMissed: boolean) => m.status === "absent" ? !m.excused : m.status === "late" && lateMissed;

const trailingRun = (meetings: MeetingFact[], lateMissed: boolean): MeetingFact[] => {
  const run: MeetingFact[] = [];
  for (let i = meetings.length - 1; i >= 0; i--) {
    const m = meetings[i] as MeetingFact;
    if (m.status === "absent" && m.excused) continue;
    if (!missed(m, lateMissed)) break;
    run.unshift(m);
  }
  return run;
};

const consecutiveMisses: RuleEvaluator<"consecutive_misses"> = (student, _cohort, params, schedule) => {
  const lateMissed = schedule.lateCountsAs === "missed";
  const runs = params.countTogether
    ? [trailingRun(student.meetings, lateMissed)]
    : (["mentor", "advisor"] as const).map((type) => trailingRun(student.meetings.filter((m) => m.meetingType === type), lateMissed));
  const run = runs.reduce((a, b) => (b.length > a.length ? b : a));
  if (run.length < params.count) return null;
  return {
    level: run.length,
    evidence: `${run.length} meetings missed in a row: ${run.map((m) => `${m.date} ${m.meetingType}`).join(", ")}`,
    details: { level: run.length, meetings: run },
  };
};

const none = () => null;

export const RULE_EVALUATORS: { [R in AlertRule]: RuleEvaluator<R> } = {
  attendance_band: none,
  consecutive_misses: consecutiveMisses,
  target_out_of_reach: none,
  flags: none,
  missing_from_reports: none,
  low_hours: none,
};
