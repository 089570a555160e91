import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import type { CohortRow } from "./cohorts.repository.js";

export function findCohort(db: DbExecutor, id: number): Promise<CohortRow | undefined> {
  return db
    .selectFrom("cohorts")
    .select(["id", "name", "program_type", "start_date", "end_date", "total_expected_hours"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/** A cohort of this name, compared as people read it (case and surrounding spaces ignored). */
export function findCohortIdByName(db: DbExecutor, name: string): Promise<number | undefined> {
  return db
    .selectFrom("cohorts")
    .select("id")
    .where(sql<boolean>`lower(trim(name)) = lower(trim(${name}))`)
    .executeTakeFirst()
    .then((r) => r?.id);
}

/** Deletes the cohort when nothing refers to it any more; true when it went. */
export async function deleteCohortIfUnused(db: DbExecutor, id: number): Promise<boolean> {
  const { rows } = await sql<{ id: number }>`delete from cohorts c where c.id = ${id}
      and not exists (select 1 from student_cohorts where cohort_id = c.id)
      and not exists (select 1 from teams where cohort_id = c.id)
      and not exists (select 1 from attendance_records where cohort_id = c.id)
      and not exists (select 1 from weekly_data where cohort_id = c.id)
      and not exists (select 1 from cohort_visibility where cohort_id = c.id)
    returning c.id`.execute(db);
  return rows.length > 0;
}
