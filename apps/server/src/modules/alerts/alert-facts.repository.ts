import type { DbExecutor } from "../../db/executor.js";
import type { WeeklyFlag } from "../../db/schema.js";

// The facts the rules judge, read per cohort with a few set-based queries (never per student).

export interface CohortRow {
  id: number;
  start_date: string;
  end_date: string;
  total_expected_hours: number | null;
}

/** Cohorts running on `today` or ended on or after `endedSince` (both YYYY-MM-DD). */
export async function findCohortsToEvaluate(db: DbExecutor, today: string, endedSince: string): Promise<number[]> {
  const rows = await db
    .selectFrom("cohorts")
    .select("id")
    .where("start_date", "<=", today)
    .where("end_date", ">=", endedSince)
    .orderBy("id")
    .execute();
  return rows.map((r) => r.id);
}

export async function findCohort(db: DbExecutor, cohortId: number): Promise<CohortRow | undefined> {
  return db
    .selectFrom("cohorts")
    .select(["id", "start_date", "end_date", "total_expected_hours"])
    .where("id", "=", cohortId)
    .executeTakeFirst();
}

export async function findMemberIds(db: DbExecutor, cohortId: number): Promise<number[]> {
  const rows = await db.selectFrom("student_cohorts").select("student_id").where("cohort_id", "=", cohortId).orderBy("student_id").execute();
  return rows.map((r) => r.student_id);
}

export interface MeetingRow {
  student_id: number;
  date: string;
  week_number: number;
  meeting_type: "mentor" | "advisor";
  status: "present" | "late" | "absent";
  excused: boolean;
}

/** Every attendance record of the cohort, by student, date, then mentor before advisor. */
export async function findMeetings(db: DbExecutor, cohortId: number): Promise<MeetingRow[]> {
  return db
    .selectFrom("attendance_records")
    .select(["student_id", "date", "week_number", "meeting_type", "status", "excused"])
    .where("cohort_id", "=", cohortId)
    .orderBy("student_id")
    .orderBy("date")
    .orderBy("meeting_type", "desc")
    .execute();
}

export interface WeekRow {
  student_id: number;
  week_number: number;
  flags: WeeklyFlag[];
  hours_reported: number | null;
}

export async function findWeeks(db: DbExecutor, cohortId: number): Promise<WeekRow[]> {
  const rows = await db
    .selectFrom("weekly_data")
    .select(["student_id", "week_number", "flags", "hours_reported"])
    .where("cohort_id", "=", cohortId)
    .orderBy("student_id")
    .orderBy("week_number")
    .execute();
  return rows.map((r) => ({
    ...r,
    flags: typeof r.flags === "string" ? (JSON.parse(r.flags) as WeeklyFlag[]) : r.flags,
    hours_reported: r.hours_reported === null ? null : Number(r.hours_reported),
  }));
}
