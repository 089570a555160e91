import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import type { AttendanceStatus, MeetingType } from "../../db/schema.js";
import { cohortVisible, type DataScope, schoolInScope, studentInScope } from "../scope/scope.js";

export interface StudentAttendanceRow {
  id: number;
  cohort_id: number;
  week_number: number;
  date: string;
  meeting_type: MeetingType;
  status: AttendanceStatus;
  excused: boolean;
}

/**
 * A student's records in cohorts visible where the meeting took place, by date; undefined
 * when the scope may not see the student. One query: the scope check rides along as the
 * student row the records hang from.
 */
export async function listStudentAttendance(
  db: DbExecutor,
  scope: DataScope,
  studentId: number,
  filters: { cohortId?: number | undefined; startDate?: string | undefined; endDate?: string | undefined },
): Promise<StudentAttendanceRow[] | undefined> {
  const rows = await db
    .selectFrom("students as s")
    .leftJoin("attendance_records as a", (join) => {
      let on = join.onRef("a.student_id", "=", "s.id").on(cohortVisible(scope, "a.cohort_id", "a.school_id"));
      if (filters.cohortId !== undefined) on = on.on("a.cohort_id", "=", filters.cohortId);
      if (filters.startDate) on = on.on("a.date", ">=", filters.startDate);
      if (filters.endDate) on = on.on("a.date", "<=", filters.endDate);
      return on;
    })
    .select(["a.id", "a.cohort_id", "a.week_number", "a.date", "a.meeting_type", "a.status", "a.excused"])
    .where("s.id", "=", studentId)
    .where(studentInScope(scope, "s", { single: true }))
    .orderBy("a.date")
    .orderBy("a.meeting_type")
    .orderBy("a.id")
    .execute();
  if (rows.length === 0) return undefined;
  return rows.filter((r): r is StudentAttendanceRow => r.id !== null);
}

export interface TrendCountRow {
  week_number: number;
  meeting_type: MeetingType;
  present: number;
  late: number;
  absent: number;
}

/**
 * Weekly counts per meeting type from the summaries (never from attendance_records): the
 * per-school rollup unless a team is chosen, as it has a tenth of the rows or fewer.
 */
export async function sumAttendanceByWeek(
  db: DbExecutor,
  scope: DataScope,
  filters: { cohortId?: number | undefined; teamId?: number | undefined; meetingType?: MeetingType | undefined },
): Promise<TrendCountRow[]> {
  // Without a team the per-school rollup (no team column, a fraction of the rows) answers
  // the same sums. The two tables share every column read here except team_id, which is
  // only touched when the per-team table is the source.
  const source = (filters.teamId === undefined ? "attendance_school_summary as asum" : "attendance_summary as asum") as
    "attendance_summary as asum";
  let query = db
    .selectFrom(source)
    .select([
      "asum.week_number",
      "asum.meeting_type",
      sql<number>`sum(asum.present)`.as("present"),
      sql<number>`sum(asum.late)`.as("late"),
      sql<number>`sum(asum.absent)`.as("absent"),
    ])
    .where(schoolInScope(scope, "asum.school_id"))
    .where(cohortVisible(scope, "asum.cohort_id", "asum.school_id"));
  if (filters.cohortId !== undefined) query = query.where("asum.cohort_id", "=", filters.cohortId);
  if (filters.teamId !== undefined) query = query.where("asum.team_id", "=", filters.teamId);
  if (filters.meetingType) query = query.where("asum.meeting_type", "=", filters.meetingType);
  const rows = await query
    .groupBy(["asum.week_number", "asum.meeting_type"])
    .orderBy("asum.week_number")
    .orderBy("asum.meeting_type")
    .execute();
  return rows.map(toTrendRow);
}

/**
 * The same weekly counts from the records of the given students (a search's matches): the
 * summaries have no student column. The ids travel as one JSON parameter.
 */
export async function sumStudentsAttendanceByWeek(
  db: DbExecutor,
  scope: DataScope,
  studentIds: readonly number[],
  filters: { cohortId?: number | undefined; teamId?: number | undefined; meetingType?: MeetingType | undefined },
): Promise<TrendCountRow[]> {
  if (studentIds.length === 0) return [];
  let query = db
    .selectFrom("attendance_records as ar")
    .select([
      "ar.week_number",
      "ar.meeting_type",
      sql<number>`count(*) filter (where ar.status = 'present')`.as("present"),
      sql<number>`count(*) filter (where ar.status = 'late')`.as("late"),
      sql<number>`count(*) filter (where ar.status = 'absent')`.as("absent"),
    ])
    .where(sql<boolean>`ar.student_id in (select value::int from json_array_elements_text(${JSON.stringify(studentIds)}::json))`)
    .where(schoolInScope(scope, "ar.school_id"))
    .where(cohortVisible(scope, "ar.cohort_id", "ar.school_id"));
  if (filters.cohortId !== undefined) query = query.where("ar.cohort_id", "=", filters.cohortId);
  if (filters.teamId !== undefined) query = query.where("ar.team_id", "=", filters.teamId);
  if (filters.meetingType) query = query.where("ar.meeting_type", "=", filters.meetingType);
  const rows = await query.groupBy(["ar.week_number", "ar.meeting_type"]).orderBy("ar.week_number").orderBy("ar.meeting_type").execute();
  return rows.map(toTrendRow);
}

function toTrendRow(r: { week_number: number; meeting_type: MeetingType; present: number; late: number; absent: number }): TrendCountRow {
  return {
    week_number: r.week_number,
    meeting_type: r.meeting_type,
    present: Number(r.present),
    late: Number(r.late),
    absent: Number(r.absent),
  };
}
