import type { DbExecutor } from "../../db/executor.js";
import type { MfaChallengesTable } from "../../db/schema.js";

export async function findTotp(db: DbExecutor, userId: number) {
  return db.selectFrom("mfa_totp").selectAll().where("user_id", "=", userId).executeTakeFirst();
}

/** A new key waiting for its first code; replaces one not yet confirmed, never a confirmed one. */
export async function savePendingTotp(db: DbExecutor, userId: number, sealedSecret: string, now: Date): Promise<boolean> {
  const row = await db
    .insertInto("mfa_totp")
    .values({ user_id: userId, secret: sealedSecret, confirmed_at: null, last_used_step: null, created_at: now })
    .onConflict((oc) =>
      oc
        .column("user_id")
        .doUpdateSet({ secret: sealedSecret, created_at: now, last_used_step: null })
        .where("mfa_totp.confirmed_at", "is", null),
    )
    .returning("user_id")
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes the time step of an accepted code in one statement: it succeeds only for a step later
 * than the last one taken, so a code (or an older one) replayed, even in parallel, is refused.
 */
export async function takeTotpStep(db: DbExecutor, userId: number, step: number): Promise<boolean> {
  const row = await db
    .updateTable("mfa_totp")
    .set({ last_used_step: step })
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("last_used_step", "is", null), eb("last_used_step", "<", step)]))
    .returning("user_id")
    .executeTakeFirst();
  return row !== undefined;
}

export async function confirmTotp(db: DbExecutor, userId: number, now: Date): Promise<boolean> {
  const row = await db
    .updateTable("mfa_totp")
    .set({ confirmed_at: now })
    .where("user_id", "=", userId)
    .where("confirmed_at", "is", null)
    .returning("user_id")
    .executeTakeFirst();
  return row !== undefined;
}

/** Removes the key, the passkeys and the recovery codes; whether there was a confirmed key. */
export async function deleteSecondFactor(db: DbExecutor, userId: number): Promise<boolean> {
  const removed = await db.deleteFrom("mfa_totp").where("user_id", "=", userId).returning("confirmed_at").executeTakeFirst();
  await db.deleteFrom("mfa_recovery_codes").where("user_id", "=", userId).execute();
  // Passkeys belong to two-step sign-in: turning it off or an admin's reset takes them too.
  await db.deleteFrom("mfa_passkeys").where("user_id", "=", userId).execute();
  await db.deleteFrom("mfa_passkey_registrations").where("user_id", "=", userId).execute();
  return Boolean(removed?.confirmed_at);
}

export async function replaceRecoveryCodes(db: DbExecutor, userId: number, hashes: string[]): Promise<void> {
  await db.deleteFrom("mfa_recovery_codes").where("user_id", "=", userId).execute();
  await db
    .insertInto("mfa_recovery_codes")
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
    .execute();
}

/** Uses a recovery code up in one statement: of two parallel uses only one succeeds. */
export async function useRecoveryCode(db: DbExecutor, userId: number, hash: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable("mfa_recovery_codes")
    .set({ used_at: now })
    .where("user_id", "=", userId)
    .where("code_hash", "=", hash)
    .where("used_at", "is", null)
    .returning("user_id")
    .executeTakeFirst();
  return row !== undefined;
}

export async function countRecoveryCodesLeft(db: DbExecutor, userId: number): Promise<number> {
  const row = await db
    .selectFrom("mfa_recovery_codes")
    .select((eb) => eb.fn.countAll<string | number>().as("n"))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How the first step of a sign-in was made: what its line in the login history will say. */
export type ChallengeOrigin = { loginMethod: "username" | "email" } | { loginMethod: "oidc"; provider: string };

// The table's check keeps a provider on every "oidc" challenge, and on no other.
function readOrigin(row: { login_method: MfaChallengesTable["login_method"]; oidc_provider: string | null }): ChallengeOrigin {
  if (row.login_method === "oidc" && row.oidc_provider !== null) return { loginMethod: "oidc", provider: row.oidc_provider };
  return { loginMethod: row.login_method === "email" ? "email" : "username" };
}

export async function insertChallenge(
  db: DbExecutor,
  c: { idHash: string; userId: number; origin: ChallengeOrigin; expiresAt: Date },
  now: Date,
): Promise<void> {
  // Finished challenges go as new ones come, which keeps the table small without a timer.
  await db.deleteFrom("mfa_challenges").where("expires_at", "<=", now).execute();
  await db
    .insertInto("mfa_challenges")
    .values({
      id_hash: c.idHash,
      user_id: c.userId,
      login_method: c.origin.loginMethod,
      oidc_provider: c.origin.loginMethod === "oidc" ? c.origin.provider : null,
      expires_at: c.expiresAt,
      used_at: null,
    })
    .execute();
}

/** A challenge still open at `now`. */
export async function findOpenChallenge(db: DbExecutor, idHash: string, now: Date) {
  const row = await db
    .selectFrom("mfa_challenges")
    .select(["user_id", "login_method", "oidc_provider", "webauthn_challenge"])
    .where("id_hash", "=", idHash)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return row && { user_id: row.user_id, webauthn_challenge: row.webauthn_challenge, origin: readOrigin(row) };
}

/** Uses the challenge up in one statement: of two parallel uses only one succeeds. */
export async function useChallenge(db: DbExecutor, idHash: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable("mfa_challenges")
    .set({ used_at: now })
    .where("id_hash", "=", idHash)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returning("user_id")
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteChallengesOf(db: DbExecutor, userId: number): Promise<void> {
  await db.deleteFrom("mfa_challenges").where("user_id", "=", userId).execute();
}
