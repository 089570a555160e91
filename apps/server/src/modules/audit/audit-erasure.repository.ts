import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";

/** The object's keys, each with the value "erased"; anything else becomes null. */
const redact = (column: "before" | "after") =>
  sql`case when jsonb_typeof(${sql.ref(column)}) = 'object'
    then coalesce((select jsonb_object_agg(k, 'erased') from jsonb_object_keys(${sql.ref(column)}) k), '{}'::jsonb)
    else null end`;

/**
 * Keeps the students' earlier audit rows (that a change was made, when, by whom) but replaces
 * every value in them (names, e-mail, ids of the CRM) by "erased": the row no longer names anyone.
 */
export async function redactStudentEntries(db: DbExecutor, studentIds: readonly number[]): Promise<void> {
  if (studentIds.length === 0) return;
  await db
    .updateTable("audit_log")
    .set({ before: redact("before") as never, after: redact("after") as never })
    .where("entity", "=", "student")
    .where(
      "entity_id",
      "in",
      studentIds.map((id) => String(id)),
    )
    .execute();
}
