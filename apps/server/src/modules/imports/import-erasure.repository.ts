import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";

/**
 * Drops what an import batch kept for Undo about erased students: the earlier weekly values
 * (reflections, advisor notes, flags) of their weekly rows and their earlier Benefit Assignment
 * IDs. The rows themselves are gone, so Undo has nothing left to restore with them.
 */
export async function forgetStudentsInBatches(db: DbExecutor, studentIds: readonly number[], weeklyIds: readonly number[]): Promise<void> {
  if (studentIds.length === 0 && weeklyIds.length === 0) return;
  const students = JSON.stringify(studentIds);
  const weekly = JSON.stringify(weeklyIds);
  await sql`update import_batches set changes = changes
      || jsonb_build_object('weeklyUpdated', coalesce((select jsonb_agg(e) from jsonb_array_elements(changes->'weeklyUpdated') e
           where not (e->'id') <@ cast(${weekly} as jsonb)), '[]'::jsonb))
      || case when jsonb_typeof(changes->'benefitIds') = 'array'
           then jsonb_build_object('benefitIds', coalesce((select jsonb_agg(e) from jsonb_array_elements(changes->'benefitIds') e
             where not (e->0) <@ cast(${students} as jsonb)), '[]'::jsonb))
           else '{}'::jsonb end
    where exists (select 1 from jsonb_array_elements(changes->'weeklyUpdated') e where (e->'id') <@ cast(${weekly} as jsonb))
       or (jsonb_typeof(changes->'benefitIds') = 'array'
           and exists (select 1 from jsonb_array_elements(changes->'benefitIds') e where (e->0) <@ cast(${students} as jsonb)))`.execute(db);
}
