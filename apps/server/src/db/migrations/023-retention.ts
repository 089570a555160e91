import { type Kysely, sql } from "kysely";

// Issue 32: the nightly retention run, and the "3 full exports" trigger of the bulk-export alarm.
// scheduled_runs: one row per job and night, claimed by the first instance that inserts it, so
// a job runs once however many servers share the database (issue 30's digest claims its weeks
// the same way). access_log.full_export marks the rows of an export whose filters narrowed
// nothing but the cohort.
const up: string[] = [
  `create table scheduled_runs (
    job text not null,
    run_on date not null,
    claimed_at timestamptz not null,
    primary key (job, run_on)
  )`,
  `alter table access_log add column full_export boolean not null default false`,
];

export async function migrate023(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
