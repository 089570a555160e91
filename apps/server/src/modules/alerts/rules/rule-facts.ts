import type { AlertDetails, AlertRule, AlertRuleParams, AlertSchedule } from "@tally/contract";

// Issue 30: what a rule is judged on. The evaluation service loads these facts for a cohort with
// a few set-based queries; each rule is a pure function of them (rules/<rule>.ts), tested at its
// edges without a database.

/** One attendance record of the student in the cohort (excused is a kind of absent). */
export interface MeetingFact {
  /** YYYY-MM-DD */
  date: string;
  week: number;
  meetingType: "mentor" | "advisor";
  status: "present" | "late" | "absent";
  excused: boolean;
}

/** The student's weekly row of the cohort (flags, reflection's hours). */
export interface WeekFact {
  week: number;
  flags: Array<{ code: string; text: string }>;
  hoursReported: number | null;
}

export interface StudentFacts {
  studentId: number;
  /** Sorted by date, then mentor before advisor. */
  meetings: MeetingFact[];
  /** Sorted by week. */
  weeks: WeekFact[];
  /** In any of the latest imported week's files: an attendance record or a weekly row that week. */
  inLatestWeekReports: boolean;
  /** The CRM export still had a session "Enrolled" after the latest week ended (false when unknown). */
  crmEnrolledAfterWeek: boolean;
}

export interface CohortFacts {
  cohortId: number;
  /** YYYY-MM-DD; week 1 starts on the cohort's start date. */
  startDate: string;
  endDate: string;
  totalExpectedHours: number | null;
  /** The latest week with imported data (null: nothing imported yet). */
  latestWeek: number | null;
  /** Weeks in the cohort (from start to end date, whole weeks rounded up). */
  totalWeeks: number;
}

/** A rule's verdict on one student: the alert's level, evidence in words, and the figures. */
export interface Condition {
  level: number;
  evidence: string;
  details: AlertDetails;
}

export type RuleEvaluator<R extends AlertRule> = (
  student: StudentFacts,
  cohort: CohortFacts,
  params: AlertRuleParams[R],
  schedule: AlertSchedule,
) => Condition | null;
