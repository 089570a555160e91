import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import { reserveIds, runChunked } from "../../db/json-rows.js";

// Bulk writes of the weekly import and its undo; the triggers keep the rollups exact.

export interface NewStudentRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string | null;
  school_id: number;
}

/**
 * Until the transaction ends (or refreshRollups), inserts and deletes of students and their
 * memberships leave the rollups to refreshRollups (migration 011).
 */
export async function deferRollups(db: DbExecutor): Promise<void> {
  await sql`select set_config('tally.defer_rollups', 'on', true)`.execute(db);
}

/** Brings the rollups of these students up to date, once, and ends the deferral. */
export async function refreshRollups(db: DbExecutor, studentIds: readonly number[]): Promise<void> {
  const ids = [...new Set(studentIds)];
  await runChunked(
    db,
    ids,
    (chunk) => sql`select refresh_student_rollup(array(select value::int from json_array_elements_text(${chunk})))`,
  );
  await sql`select set_config('tally.defer_rollups', 'off', true)`.execute(db);
}

/** Reserves ids so that the rows that refer to new students can be built before they exist. */
export const reserveStudentIds = (db: DbExecutor, count: number) => reserveIds(db, "students", count);

export async function insertStudents(db: DbExecutor, rows: readonly NewStudentRow[], at: Date): Promise<void> {
  await runChunked(
    db,
    rows,
    (chunk) => sql`insert into students (id, first_name, last_name, email, school_id, created_at, updated_at)
      select id, first_name, last_name, email, school_id, ${at}, ${at}
        from json_to_recordset(${chunk}) as x(id int, first_name text, last_name text, email text, school_id int)`,
  );
}

export async function insertCohortMemberships(db: DbExecutor, pairs: ReadonlyArray<[number, number]>, at: Date): Promise<void> {
  await runChunked(
    db,
    pairs,
    (chunk) => sql`insert into student_cohorts (student_id, cohort_id, joined_at)
      select (p->>0)::int, (p->>1)::int, ${at} from json_array_elements(${chunk}) p
      on conflict do nothing`,
  );
}

export async function insertTeamMemberships(db: DbExecutor, pairs: ReadonlyArray<[number, number]>, at: Date): Promise<void> {
  await runChunked(
    db,
    pairs,
    (chunk) => sql`insert into student_teams (student_id, team_id, joined_at)
      select (p->>0)::int, (p->>1)::int, ${at} from json_array_elements(${chunk}) p
      on conflict do nothing`,
  );
}

export async function deleteCohortMemberships(db: DbExecutor, pairs: ReadonlyArray<[number, number]>): Promise<void> {
  await runChunked(
    db,
    pairs,
    (chunk) => sql`delete from student_cohorts sc using json_array_elements(${chunk}) p
      where sc.student_id = (p->>0)::int and sc.cohort_id = (p->>1)::int`,
  );
}

export async function deleteTeamMemberships(db: DbExecutor, pairs: ReadonlyArray<[number, number]>): Promise<void> {
  await runChunked(
    db,
    pairs,
    (chunk) => sql`delete from student_teams st using json_array_elements(${chunk}) p
      where st.student_id = (p->>0)::int and st.team_id = (p->>1)::int`,
  );
}

/**
 * Locks the students' rows until the transaction ends, in id order: an edit of one of them
 * (which locks its row first) waits for an undo, or the undo for the edit.
 */
export async function lockStudents(db: DbExecutor, ids: readonly number[]): Promise<void> {
  await runChunked(
    db,
    [...ids].sort((a, b) => a - b),
    (chunk) => sql`select s.id from students s where s.id in (select value::int from json_array_elements_text(${chunk}))
      order by s.id for update`,
  );
}

/** "First Last" of each of the students that exist. */
export async function studentNames(db: DbExecutor, ids: readonly number[]): Promise<Map<number, string>> {
  const rows = await runChunked(
    db,
    ids,
    (chunk) => sql<{ id: number; first_name: string; last_name: string }>`select s.id, s.first_name, s.last_name from students s
      where s.id in (select value::int from json_array_elements_text(${chunk}))`,
  );
  return new Map(rows.map((r) => [r.id, `${r.first_name} ${r.last_name}`.trim()]));
}

/**
 * Deletes those of the students that nothing else refers to any more (no cohort, team,
 * attendance or weekly row); returns how many went.
 */
export async function deleteUnreferencedStudents(db: DbExecutor, ids: readonly number[]): Promise<number> {
  const removed = await runChunked(
    db,
    ids,
    (chunk) => sql<{ id: number }>`delete from students s
      using json_array_elements_text(${chunk}) x
      where s.id = x.value::int
        and not exists (select 1 from student_cohorts where student_id = s.id)
        and not exists (select 1 from student_teams where student_id = s.id)
        and not exists (select 1 from attendance_records where student_id = s.id)
        and not exists (select 1 from weekly_data where student_id = s.id)
      returning s.id`,
  );
  return removed.length;
}

/**
 * Stores each Benefit Assignment ID on its student where the student has none and no other
 * student holds it (the flag uploader's first match); returns the students that took one.
 */
export async function storeBenefitIds(db: DbExecutor, pairs: ReadonlyArray<[number, string]>): Promise<number[]> {
  const stored = await runChunked(
    db,
    pairs,
    (chunk) => sql<{ id: number }>`update students s set benefit_assignment_id = p->>1, updated_at = now()
      from json_array_elements(${chunk}) p
      where s.id = (p->>0)::int and s.benefit_assignment_id is null
        and not exists (select 1 from students o where o.benefit_assignment_id = p->>1)
      returning s.id`,
  );
  return stored.map((r) => r.id);
}

/**
 * Puts back the Benefit Assignment IDs an undone flag import stored ([student, previous, stored]).
 * An ID changed by hand since (an admin's correction) is not the one stored: it stays.
 */
export async function restoreBenefitIds(
  db: DbExecutor,
  pairs: ReadonlyArray<[number, string | null] | [number, string | null, string]>,
): Promise<void> {
  await runChunked(
    db,
    pairs,
    (chunk) => sql`update students s set benefit_assignment_id = p->>1
      from json_array_elements(${chunk}) p
      where s.id = (p->>0)::int and (json_array_length(p) < 3 or s.benefit_assignment_id is not distinct from p->>2)`,
  );
}

/** Who holds each of these Benefit Assignment IDs (IDs nobody holds are left out). */
export async function benefitIdHolders(
  db: DbExecutor,
  ids: readonly string[],
): Promise<Array<{ benefit_assignment_id: string; id: number; name: string }>> {
  if (ids.length === 0) return [];
  const { rows } = await sql<{ benefit_assignment_id: string; id: number; name: string }>`
    select s.benefit_assignment_id, s.id, s.first_name || ' ' || s.last_name as name from students s
     where s.benefit_assignment_id in (select value from json_array_elements_text(${JSON.stringify([...new Set(ids)])}::json))`.execute(db);
  return rows;
}
