import type { DbExecutor } from "../../db/executor.js";

export async function listPasskeys(db: DbExecutor, userId: number) {
  return db.selectFrom("mfa_passkeys").selectAll().where("user_id", "=", userId).orderBy("created_at").execute();
}

export async function countPasskeys(db: DbExecutor, userId: number): Promise<number> {
  const row = await db
    .selectFrom("mfa_passkeys")
    .select((eb) => eb.fn.countAll<string | number>().as("n"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findPasskey(db: DbExecutor, userId: number, credentialId: string) {
  return db.selectFrom("mfa_passkeys").selectAll().where("user_id", "=", userId).where("credential_id", "=", credentialId).executeTakeFirst();
}

/** Whether the credential is new (a credential already known, to anyone, is refused). */
export async function insertPasskey(
  db: DbExecutor,
  p: { credentialId: string; userId: number; publicKey: string; counter: number; transports: string | null },
  now: Date,
): Promise<boolean> {
  const row = await db
    .insertInto("mfa_passkeys")
    .values({ credential_id: p.credentialId, user_id: p.userId, public_key: p.publicKey, counter: p.counter, transports: p.transports, created_at: now, last_used_at: null })
    .onConflict((oc) => oc.column("credential_id").doNothing())
    .returning("credential_id")
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes the new signature counter in one statement: only a higher one (or 0 after 0, from an
 * authenticator that keeps no counter), so an assertion replayed or from a clone is refused.
 */
export async function takePasskeyCounter(db: DbExecutor, credentialId: string, counter: number, now: Date): Promise<boolean> {
  const row = await db
    .updateTable("mfa_passkeys")
    .set({ counter, last_used_at: now })
    .where("credential_id", "=", credentialId)
    .where((eb) => (counter === 0 ? eb("counter", "=", 0) : eb("counter", "<", counter)))
    .returning("credential_id")
    .executeTakeFirst();
  return row !== undefined;
}

export async function deletePasskeysOf(db: DbExecutor, userId: number): Promise<number> {
  const rows = await db.deleteFrom("mfa_passkeys").where("user_id", "=", userId).returning("credential_id").execute();
  await db.deleteFrom("mfa_passkey_registrations").where("user_id", "=", userId).execute();
  return rows.length;
}

export async function savePendingRegistration(db: DbExecutor, userId: number, challenge: string, expiresAt: Date): Promise<void> {
  await db
    .insertInto("mfa_passkey_registrations")
    .values({ user_id: userId, challenge, expires_at: expiresAt })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ challenge, expires_at: expiresAt }))
    .execute();
}

/** Takes the waiting registration's challenge (once) while it is open. */
export async function takePendingRegistration(db: DbExecutor, userId: number, now: Date): Promise<string | undefined> {
  const row = await db
    .deleteFrom("mfa_passkey_registrations")
    .where("user_id", "=", userId)
    .returning(["challenge", "expires_at"])
    .executeTakeFirst();
  return row && new Date(row.expires_at) > now ? row.challenge : undefined;
}

/** Binds a WebAuthn challenge to an open sign-in challenge; false when that one is not open. */
export async function setSignInWebauthnChallenge(db: DbExecutor, idHash: string, webauthnChallenge: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable("mfa_challenges")
    .set({ webauthn_challenge: webauthnChallenge })
    .where("id_hash", "=", idHash)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returning("user_id")
    .executeTakeFirst();
  return row !== undefined;
}
