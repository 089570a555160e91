import { type Kysely, sql } from "kysely";

// Issue 15: an audit row also says from which client address the change came (the request's
// address as TRUST_PROXY lets the server see it; null for changes made outside a request, such
// as the CLI). The actor index serves the audit page's "who" filter.
const up: string[] = [
  `alter table audit_log add column client_address text`,
  `create index audit_log_actor on audit_log (actor_id, at desc)`,
];

export async function migrate014(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
