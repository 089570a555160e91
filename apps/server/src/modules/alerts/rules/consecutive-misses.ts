import { citedMeetings, dayMonth, isHeld, isMissed, meetingList } from "./meeting-words.js";
import type { MeetingFact, RuleEvaluator } from "./rule-facts.js";

/**
 * The current run: missed meetings in a row ending at the latest held meeting. Excused meetings
 * are skipped before counting, so they neither break nor extend a run; they are named in the
 * evidence when they fall inside it. Counted separately, each meeting type has its own run and
 * the longer one is the alert (its level and its cited meetings).
 */
export const consecutiveMisses: RuleEvaluator<"consecutive_misses"> = (student, _cohort, params, schedule) => {
  const held = student.meetings.filter(isHeld);
  const runs = params.countTogether
    ? [currentRun(held, schedule)]
    : (["mentor", "advisor"] as const).map((type) => currentRun(held.filter((m) => m.meetingType === type), schedule));
  const run = runs.reduce((longest, r) => (r.length > longest.length ? r : longest), [] as MeetingFact[]);
  if (run.length === 0 || run.length < params.count) return null;
  const first = run[0] as MeetingFact;
  const last = run[run.length - 1] as MeetingFact;
  const excusedWithin = student.meetings.filter(
    (m) =>
      m.excused &&
      m.date >= first.date &&
      m.date <= last.date &&
      (params.countTogether || m.meetingType === first.meetingType),
  );
  const kind = params.countTogether ? "meetings" : `${first.meetingType} meetings`;
  const excusedWords =
    excusedWithin.length > 0
      ? ` (excused, not counted: ${excusedWithin.map((m) => `${m.meetingType} ${dayMonth(m.date)}`).join(", ")})`
      : "";
  return {
    level: run.length,
    evidence: `Missed ${run.length} ${kind} in a row: ${meetingList(run)}${excusedWords}`,
    details: { level: run.length, meetings: citedMeetings(run) },
  };
};

function currentRun(meetings: MeetingFact[], schedule: Parameters<typeof isMissed>[1]): MeetingFact[] {
  let start = meetings.length;
  while (start > 0 && isMissed(meetings[start - 1] as MeetingFact, schedule)) start--;
  return meetings.slice(start);
}
