import { type Kysely, sql } from "kysely";

// Issue 31, single sign-on. The provider's callback ends in the browser with a one-time code
// (oidc_handoffs: its digest, single use, a minute's life) that the web app exchanges for the
// usual token pair, so no token ever travels in a URL. The row is in the database so that any
// instance can take the exchange. The login history names the provider of an SSO sign-in and
// whether the provider's `amr` showed two factors (multi_factor, read by the second-factor rule).
const up: string[] = [
  `create table oidc_handoffs (
    id serial primary key,
    code_hash text not null unique,
    user_id integer not null references users(id) on delete cascade,
    provider text not null,
    multi_factor boolean not null,
    created_at timestamptz not null,
    expires_at timestamptz not null,
    used_at timestamptz
  )`,
  `create index oidc_handoffs_expires_idx on oidc_handoffs (expires_at)`,
  `alter table login_logs add column provider text`,
  `alter table login_logs add column multi_factor boolean not null default false`,
];

export async function migrate020(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
