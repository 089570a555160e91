import { type Kysely, sql } from "kysely";

// Every change an admin makes to settings, schools and cohorts (and, later, imports and
// flags) leaves one row: who, when, what, and the values before and after. Rows are only
// ever inserted; a later issue shows them to admins.
const up: string[] = [
  `create table audit_log (
    id serial primary key,
    at timestamptz not null default now(),
    actor_id integer references users(id) on delete set null,
    action text not null,
    entity text not null,
    entity_id text,
    before jsonb,
    after jsonb
  )`,
  `create index audit_log_at on audit_log (at desc, id desc)`,
  `create index audit_log_entity on audit_log (entity, entity_id)`,
];

export async function migrate008(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
