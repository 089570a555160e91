import { type Kysely, sql } from "kysely";

// Sign-in attempts are reserved here before the password is checked: one counter row per
// key ((address, account) pair, or address), claimed by a single upsert, so a burst of
// parallel attempts, even across several app instances, cannot all slip past the limit.
// The window is fixed from its first attempt, so refused tries never extend a lock.
const up: string[] = [
  `create table login_throttle (
    key text primary key,
    window_started_at timestamptz not null,
    attempts integer not null
  )`,
];

export async function migrate005(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
