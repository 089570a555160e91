import { type Kysely, sql } from "kysely";

// Issue 41, single sign-on and the second factor.
// - users.oidc_provider / oidc_subject: the provider account (`iss`-configured provider id and
//   its `sub`) an account is linked to on its first single sign-on; any other is refused after.
// - oidc_handoffs.browser_hash: the digest of the cookie the browser that started the sign-in
//   holds; the one-time code is exchanged only with it (login CSRF). Codes waiting without one
//   (a minute's life at most) are dropped.
// - fresh_proofs: when a sign-in last proved its person again (password, current code, or a
//   single sign-on), so a second factor is added or removed only within minutes of that proof,
//   on whichever instance the request lands.
const up: string[] = [
  `alter table users add column oidc_provider text`,
  `alter table users add column oidc_subject text`,
  `alter table users add constraint users_oidc_link_whole check ((oidc_provider is null) = (oidc_subject is null))`,
  `create unique index users_oidc_subject_idx on users (oidc_provider, oidc_subject) where oidc_subject is not null`,
  `delete from oidc_handoffs`,
  `alter table oidc_handoffs add column browser_hash text not null`,
  `create table fresh_proofs (
    session_id text primary key,
    user_id integer not null references users(id) on delete cascade,
    proven_at timestamptz not null
  )`,
];

export async function migrate030(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
