import { type Kysely, sql } from "kysely";

// Issue 31: what a sign-in was made with, as data of its own. A sign-in whose two factors a
// single sign-on provider vouched for (its `amr`) keeps that on every refresh token of its
// family, so the access tokens refreshed from it say so too. A sign-in's challenge for the
// second step keeps the provider of a single sign-on, for its line in the login history.
const up: string[] = [
  `alter table refresh_tokens add column provider_two_factor boolean not null default false`,
  `alter table mfa_challenges add column oidc_provider text`,
  `alter table mfa_challenges add constraint mfa_challenges_oidc_provider
    check ((login_method = 'oidc') = (oidc_provider is not null))`,
];

export async function migrate024(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
