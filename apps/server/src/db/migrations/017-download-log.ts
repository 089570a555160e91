import { type Kysely, sql } from "kysely";

// Issue 27: downloads of student data and of the audit log are limited per user (LIMITS.
// downloadsPerMinute in any rolling minute). One row per download taken, so a refusal can say
// when the oldest leaves the minute (Retry-After); in the database, so every server instance
// on it shares the count. A user's rows older than the minute go when the next one is counted.
const up: string[] = [
  `create table download_log (
    user_id integer not null references users(id) on delete cascade,
    at timestamptz not null
  )`,
  `create index download_log_user_at on download_log (user_id, at)`,
];

export async function migrate017(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
