import { type Kysely, sql } from "kysely";

// Issue 41, one export gate. A download row is now the export's claim, taken before the export
// answers: `download` says whether it counts against the per-minute limit (the e-mailed report
// has its own hourly one), `full_export` whether it counts toward the bulk-export alarm's full
// exports. Counting them in the claim's locked transaction is what keeps twelve parallel full
// exports from all passing a limit of three, on every instance. Full-export rows stay 24 hours.
// The record of access also names the students a bulk read returned as data ('data': the report
// data call, a students page larger than a view).
const up: string[] = [
  `alter table download_log add column download boolean not null default true`,
  `alter table download_log add column full_export boolean not null default false`,
  `create index download_log_user_full on download_log (user_id, at) where full_export`,
  `alter table access_log drop constraint access_log_action_check`,
  `alter table access_log add constraint access_log_action_check check (action in ('view', 'pdf', 'csv', 'email', 'export', 'data'))`,
];

export async function migrate032(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
