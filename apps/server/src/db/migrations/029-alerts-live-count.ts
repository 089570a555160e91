import { type Kysely, sql } from "kysely";

// Issue 30, performance: the call list's count ("total") read every live alert of the scope from
// the table itself, a page of the heap per alert (the admin's count over 26,000 live alerts
// took 11 ms, the school user's 1.5 ms of a 5 ms request). This index holds what the count
// filters on (the school, the state, the hidden students' and cohorts' columns), so the count
// reads the index alone once the evaluation has vacuumed the table (evaluateAlerts does).
const up: string[] = [
  `create index alerts_live_scope on alerts (school_id, state) include (student_id, cohort_id, severity) where condition_ended_at is null`,
];

export async function migrate029(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
