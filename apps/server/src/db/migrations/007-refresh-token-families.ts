import { type Kysely, sql } from "kysely";

// A refresh token's family is one sign-in: the tokens that rotation hands on from it. Access
// tokens name their family (the `sid` claim), so signing out, or a stolen refresh token being
// reused, ends the access tokens of that sign-in on their next request.
const up: string[] = [
  `alter table refresh_tokens add column family_id text`,
  `update refresh_tokens set family_id = 'legacy-' || id`,
  `alter table refresh_tokens alter column family_id set not null`,
  `create index refresh_tokens_live_family_idx on refresh_tokens (family_id) where revoked_at is null`,
];

export async function migrate007(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
