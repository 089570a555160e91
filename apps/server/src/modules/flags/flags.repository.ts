import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import type { FlagRunRow } from "../../db/schema.js";
import type { CohortStudent } from "./flag-matching.js";

export function listCohortStudents(db: DbExecutor, cohortId: number): Promise<CohortStudent[]> {
  return db
    .selectFrom("students as s")
    .innerJoin("student_cohorts as sc", "sc.student_id", "s.id")
    .select(["s.id", "s.first_name", "s.last_name", "s.email", "s.benefit_assignment_id"])
    .where("sc.cohort_id", "=", cohortId)
    .execute();
}

export interface NewFlagRun {
  id: string;
  userId: number;
  cohortId: number;
  week: number;
  files: Array<{ field: string; name: string; size: number; sha256: string }>;
  rows: FlagRunRow[];
  at: Date;
  expiresAt: Date;
}

export async function insertRun(db: DbExecutor, run: NewFlagRun): Promise<void> {
  // Expired runs go as new ones come: the table holds an hour or two of work at most.
  await db.deleteFrom("flag_runs").where("expires_at", "<", run.at).execute();
  await db
    .insertInto("flag_runs")
    .values({
      id: run.id,
      created_at: run.at,
      expires_at: run.expiresAt,
      user_id: run.userId,
      cohort_id: run.cohortId,
      week_number: run.week,
      files: JSON.stringify(run.files),
      rows: JSON.stringify(run.rows),
    })
    .execute();
}

export interface StoredRun {
  id: string;
  /** When the files were processed: the CRM export was read then. */
  created_at: Date;
  cohort_id: number;
  week_number: number;
  files: NewFlagRun["files"];
  rows: FlagRunRow[];
}

/** The run, while it has not expired. */
export function findLiveRun(db: DbExecutor, id: string, now: Date): Promise<StoredRun | undefined> {
  return db
    .selectFrom("flag_runs")
    .select(["id", "created_at", "cohort_id", "week_number", "files", "rows"])
    .where("id", "=", id)
    .where(sql<boolean>`expires_at > ${now}`)
    .executeTakeFirst();
}

/** How many of these students still have no Benefit Assignment ID. */
export async function countWithoutBenefitId(db: DbExecutor, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from students
    where benefit_assignment_id is null and id in (select value::int from json_array_elements_text(${JSON.stringify(ids)}::json))`.execute(db);
  return rows[0]?.n ?? 0;
}
