import { type Kysely, sql } from "kysely";

// Every weekly-import commit is a batch. `changes` holds what Undo needs to restore the state
// before it exactly: the ids of the rows the batch created and the previous values of the rows
// it updated. One row per batch keeps a 75,000-row import to one extra insert.
const up: string[] = [
  `create table import_batches (
    id serial primary key,
    created_at timestamptz not null default now(),
    user_id integer references users(id) on delete set null,
    cohort_id integer not null,
    week_number integer not null,
    files jsonb not null,
    summary jsonb not null,
    created_cohort boolean not null default false,
    changes jsonb not null,
    undone_at timestamptz,
    undone_by integer references users(id) on delete set null
  )`,
  `create index import_batches_cohort on import_batches (cohort_id, id desc)`,
  `create index import_batches_recent on import_batches (id desc)`,
];

export async function migrate009(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
