import type { AlertSchedule } from "@tally/contract";
import { citedMeetings, isHeld, isMissed, meetingList, oneDecimal, percentWords, plural, weekWords } from "./meeting-words.js";
import type { CohortFacts, MeetingFact, RuleEvaluator } from "./rule-facts.js";

/**
 * Even attending every meeting still to come (the schedule's meetings a week for each week after
 * the latest imported one), the student ends below the target. Excused meetings are left out of
 * the meetings held, as in the attendance band. fromWeek replays the weeks one by one: the first
 * week of the current stretch in which the target was already out of reach.
 */
export const targetOutOfReach: RuleEvaluator<"target_out_of_reach"> = (student, cohort, params, schedule) => {
  if (cohort.latestWeek === null) return null;
  const latest = cohort.latestWeek;
  const held = student.meetings.filter((m) => isHeld(m) && m.week <= latest);
  const now = bestPossible(held, latest, cohort, schedule);
  if (now === null || !below(now, params.targetPercent)) return null;

  let fromWeek = latest;
  for (let week = latest - 1; week >= 1; week--) {
    const then = bestPossible(held.filter((m) => m.week <= week), week, cohort, schedule);
    if (then === null || !below(then, params.targetPercent)) break;
    fromWeek = week;
  }

  const missed = held.filter((m) => isMissed(m, schedule));
  const attendedPercent = (now.attended / held.length) * 100;
  const bestPercent = (now.bestAttended / now.total) * 100;
  const remainingWords = now.remaining > 0 ? `even attending all ${now.remaining} remaining` : "with no meeting remaining";
  return {
    level: 1,
    evidence:
      `Attended ${now.attended} of ${plural(held.length, "meeting")} so far (${percentWords(attendedPercent)}); ` +
      `${remainingWords}, at most ${percentWords(bestPercent)} against the ${percentWords(params.targetPercent)} target, ` +
      `out of reach since ${weekWords(fromWeek, cohort.startDate)}. Missed: ${meetingList(missed)}`,
    details: {
      level: 1,
      attendedPercent: oneDecimal(attendedPercent),
      bestPossiblePercent: oneDecimal(bestPercent),
      targetPercent: params.targetPercent,
      fromWeek,
      meetings: citedMeetings(missed),
    },
  };
};

interface BestPossible {
  attended: number;
  remaining: number;
  bestAttended: number;
  total: number;
}

/** The best the student can still end on, judged at the end of `week` (null: nothing to judge). */
function bestPossible(held: MeetingFact[], week: number, cohort: CohortFacts, schedule: AlertSchedule): BestPossible | null {
  if (held.length === 0) return null;
  const perWeek = schedule.mentorMeetingsPerWeek + schedule.advisorMeetingsPerWeek;
  const remaining = Math.max(0, cohort.totalWeeks - week) * perWeek;
  const attended = held.filter((m) => !isMissed(m, schedule)).length;
  return { attended, remaining, bestAttended: attended + remaining, total: held.length + remaining };
}

/** Compared in whole products so that exactly the target is "reached", whatever the rounding. */
function below(best: BestPossible, targetPercent: number): boolean {
  return best.bestAttended * 100 < targetPercent * best.total;
}
