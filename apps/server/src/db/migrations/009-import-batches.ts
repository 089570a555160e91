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

  // Undo deletes the teams an import created; their emptied rollup rows go with them (a row
  // left behind would name a team that no longer exists).
  `create function teams_rollup_forget() returns trigger language plpgsql as $$
   begin
     delete from rollup_school_teams r using old_rows o where r.team_id = o.id and r.students = 0;
     delete from rollup_team_spread r using old_rows o where r.team_id = o.id and r.school_keys = 0;
     return null;
   end $$`,
  `create trigger teams_rollup_forget after delete on teams
     referencing old table as old_rows for each statement execute function teams_rollup_forget()`,
];

export async function migrate009(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
