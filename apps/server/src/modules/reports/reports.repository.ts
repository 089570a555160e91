import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import { cohortVisible, type DataScope } from "../scope/scope.js";

// Reads only: the report joins the attendance records and the audit log the way the students
// list joins school names (README, "Who owns which table"); it writes nothing here.

export interface AttendanceShareRow {
  student_id: number;
  present: number;
  late: number;
  absent: number;
}

/**
 * Each listed student's counts of present, late and absent meetings, in cohorts visible at
 * the school where the meeting took place (and the one cohort when a cohort is chosen).
 * The students were listed through the students service with the same scope.
 */
export async function countAttendanceByStudent(
  db: DbExecutor,
  scope: DataScope,
  studentIds: readonly number[],
  cohortId: number | undefined,
): Promise<AttendanceShareRow[]> {
  if (studentIds.length === 0) return [];
  let query = db
    .selectFrom("attendance_records as a")
    .select([
      "a.student_id",
      sql<number>`count(*) filter (where a.status = 'present')`.as("present"),
      sql<number>`count(*) filter (where a.status = 'late')`.as("late"),
      sql<number>`count(*) filter (where a.status = 'absent')`.as("absent"),
    ])
    // The ids travel as one array parameter: one statement text for any page size.
    .where(sql<boolean>`a.student_id = any(${sql.val(`{${studentIds.map((id) => Math.trunc(id)).join(",")}}`)}::int[])`)
    .where(cohortVisible(scope, "a.cohort_id", "a.school_id"))
    .groupBy("a.student_id");
  if (cohortId !== undefined) query = query.where("a.cohort_id", "=", cohortId);
  const rows = await query.execute();
  return rows.map((r) => ({ student_id: r.student_id, present: Number(r.present), late: Number(r.late), absent: Number(r.absent) }));
}

/** How many audit rows of this kind the actor has at or after `since`, and the time of the oldest (the e-mail rate limit). */
export async function countActorEntries(
  db: DbExecutor,
  entity: string,
  actorId: number,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const row = await db
    .selectFrom("audit_log")
    .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.min("at").as("oldest")])
    .where("entity", "=", entity)
    .where("entity_id", "=", String(actorId))
    .where("at", ">=", since)
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), oldest: row?.oldest ? new Date(row.oldest) : null };
}

/**
 * Serialises one user's report sends until the transaction ends, so two at once cannot both
 * read 19 and send the 21st; held in the database, so it works across server instances.
 */
export async function lockActorSends(db: DbExecutor, actorId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(${sql.lit(7_013)}, ${sql.lit(Math.trunc(actorId))})`.execute(db);
}
