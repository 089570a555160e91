import { type Kysely, sql } from "kysely";

// The flag uploader processes three files into calculated flags, shows them, and imports them
// on confirmation. The server never takes flags from the client: it keeps each processed run
// here (any instance can confirm it) until it expires, and imports its own rows.
const up: string[] = [
  `create table flag_runs (
    id text primary key,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    user_id integer references users(id) on delete set null,
    cohort_id integer not null,
    week_number integer not null,
    files jsonb not null,
    rows jsonb not null
  )`,
  `create index flag_runs_expiry on flag_runs (expires_at)`,
  // Weekly imports and flag imports are both batches; Undo works the same for each.
  `alter table import_batches add column kind text not null default 'weekly' check (kind in ('weekly', 'flags'))`,
];

export async function migrate010(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
