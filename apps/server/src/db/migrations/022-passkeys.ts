import { type Kysely, sql } from "kysely";

// Issue 31: passkeys (WebAuthn) as a second factor, used instead of a TOTP code at sign-in.
// A credential's public key (COSE, base64url) and its signature counter are kept; the counter
// is raised by each sign-in so a cloned authenticator replaying an older counter is refused.
// A registration waits for the browser with its WebAuthn challenge (one per account, short-lived);
// a sign-in's WebAuthn challenge rides on the sign-in challenge it belongs to.
const up: string[] = [
  `create table mfa_passkeys (
    credential_id text primary key,
    user_id integer not null references users(id) on delete cascade,
    public_key text not null,
    counter bigint not null default 0,
    transports text,
    created_at timestamptz not null,
    last_used_at timestamptz
  )`,
  `create index mfa_passkeys_user on mfa_passkeys (user_id)`,
  `create table mfa_passkey_registrations (
    user_id integer primary key references users(id) on delete cascade,
    challenge text not null,
    expires_at timestamptz not null
  )`,
  `alter table mfa_challenges add column webauthn_challenge text`,
];

export async function migrate022(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
