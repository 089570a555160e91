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

/** The cohort's attendance records of these students, by student, date, then mentor before advisor. */
export async function findMeetings(db: DbExecutor, cohortId: number, studentIds: readonly number[]): Promise<MeetingRow[]> {
  if (studentIds.length === 0) return [];
  return db
    .selectFrom("attendance_records")
    .select(["student_id", "date", "week_number", "meeting_type", "status", "excused"])
    .where("student_id", "in", studentIds)
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

/** The cohort's weekly rows of these students, by student and week. */
export async function findWeeks(db: DbExecutor, cohortId: number, studentIds: readonly number[]): Promise<WeekRow[]> {
  if (studentIds.length === 0) return [];
  const rows = await db
    .selectFrom("weekly_data")
    .select(["student_id", "week_number", "flags", "hours_reported"])
    .where("student_id", "in", studentIds)
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

/** The latest week with an attendance record or a weekly row in the cohort (null: none yet). */
export async function findLatestWeek(db: DbExecutor, cohortId: number): Promise<number | null> {
  const [attendance, weekly] = await Promise.all([
    db
      .selectFrom("attendance_summary")
      .select((eb) => eb.fn.max("week_number").as("week"))
      .where("cohort_id", "=", cohortId)
      .where((eb) => eb(eb(eb("present", "+", eb.ref("late")), "+", eb.ref("absent")), ">", 0))
      .executeTakeFirst(),
    db.selectFrom("weekly_data").select((eb) => eb.fn.max("week_number").as("week")).where("cohort_id", "=", cohortId).executeTakeFirst(),
  ]);
  const weeks = [attendance?.week, weekly?.week].filter((w): w is number => w !== null && w !== undefined).map(Number);
  return weeks.length === 0 ? null : Math.max(...weeks);
}
