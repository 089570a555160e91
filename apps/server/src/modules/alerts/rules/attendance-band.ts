import type { AlertDetails } from "@tally/contract";
import { citedMeetings, isHeld, isMissed, meetingList, percentWords, oneDecimal } from "./meeting-words.js";
import type { RuleEvaluator } from "./rule-facts.js";

const BAND_WORDS = { at_risk: "at risk", chronic: "chronic", severe: "severe" } as const;

/**
 * Attendance Works' bands on the meetings missed so far. Excused meetings are left out of both
 * the numerator and the denominator: an excused absence neither lowers nor dilutes the figure.
 * The thresholds are compared as missed × 100 ≥ threshold × held so that exactly 5 % of 20
 * meetings is "at risk" without a floating-point rounding deciding it.
 */
export const attendanceBand: RuleEvaluator<"attendance_band"> = (student, _cohort, params, schedule) => {
  const held = student.meetings.filter(isHeld);
  if (held.length === 0 || held.length < params.minMeetings) return null;
  const missed = held.filter((m) => isMissed(m, schedule));
  const reaches = (threshold: number) => missed.length * 100 >= threshold * held.length;
  let level: number;
  let band: NonNullable<AlertDetails["band"]>;
  if (reaches(params.severePercent)) [level, band] = [3, "severe"];
  else if (reaches(params.chronicPercent)) [level, band] = [2, "chronic"];
  else if (reaches(params.atRiskPercent) && missed.length > 0) [level, band] = [1, "at_risk"];
  else return null;
  const missedPercent = (missed.length / held.length) * 100;
  return {
    level,
    evidence: `Missed ${missed.length} of ${held.length} meetings (${percentWords(missedPercent)}, ${BAND_WORDS[band]}): ${meetingList(missed)}`,
    details: { level, band, missedPercent: oneDecimal(missedPercent), meetings: citedMeetings(missed) },
  };
};
