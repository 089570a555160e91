import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import { reserveIds, runChunked } from "../../db/json-rows.js";

export interface NewTeamRow {
  id: number;
  name: string;
  school_id: number;
  cohort_id: number;
}

export const reserveTeamIds = (db: DbExecutor, count: number) => reserveIds(db, "teams", count);

/** Teams the weekly import creates: named in the meeting report, unknown in a known school. */
export async function insertTeams(db: DbExecutor, rows: readonly NewTeamRow[], at: Date): Promise<void> {
  await runChunked(
    db,
    rows,
    (chunk) => sql`insert into teams (id, name, school_id, cohort_id, created_at)
      select id, name, school_id, cohort_id, ${at}
        from json_to_recordset(${chunk}) as x(id int, name text, school_id int, cohort_id int)`,
  );
}

/**
 * Deletes those of the teams no student belongs to any more; returns how many went. Only
 * teams an import created come here, after its attendance rows went (newer batches were
 * undone before), so no attendance row can still name them.
 */
export async function deleteUnusedTeams(db: DbExecutor, ids: readonly number[]): Promise<number> {
  const removed = await runChunked(
    db,
    ids,
    (chunk) => sql<{ id: number }>`delete from teams t using json_array_elements_text(${chunk}) x
      where t.id = x.value::int and not exists (select 1 from student_teams where team_id = t.id)
      returning t.id`,
  );
  return removed.length;
}
