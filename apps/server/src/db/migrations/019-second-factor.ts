import { type Kysely, sql } from "kysely";

// Issue 31: the second factor. The TOTP key is kept sealed (AES-256-GCM under a key derived
// from SECRET_KEY); confirmed_at is null while enrolment waits for its first code, and
// last_used_step is the newest 30-second step a code was accepted for, so each code works
// once (an update that only succeeds for a later step). Recovery codes are kept as keyed
// hashes; a challenge is what a right password earns an enrolled account: its hash, its
// account and its expiry, used once.
const up: string[] = [
  `create table mfa_totp (
    user_id integer primary key references users(id) on delete cascade,
    secret text not null,
    confirmed_at timestamptz,
    last_used_step integer,
    created_at timestamptz not null
  )`,
  `create table mfa_recovery_codes (
    user_id integer not null references users(id) on delete cascade,
    code_hash text not null,
    used_at timestamptz,
    primary key (user_id, code_hash)
  )`,
  `create table mfa_challenges (
    id_hash text primary key,
    user_id integer not null references users(id) on delete cascade,
    login_method text not null,
    expires_at timestamptz not null,
    used_at timestamptz
  )`,
  `create index mfa_challenges_expires_at on mfa_challenges (expires_at)`,
];

export async function migrate019(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
