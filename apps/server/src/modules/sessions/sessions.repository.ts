import type { DbExecutor } from "../../db/executor.js";
import type { OneTimeTokenPurpose } from "../../db/schema.js";

// --- refresh tokens ----------------------------------------------------------------------

export async function insertRefreshToken(
  db: DbExecutor,
  t: { userId: number; familyId: string; tokenHash: string; createdAt: Date; expiresAt: Date; providerTwoFactor: boolean },
): Promise<number> {
  const row = await db
    .insertInto("refresh_tokens")
    .values({
      user_id: t.userId,
      family_id: t.familyId,
      token_hash: t.tokenHash,
      created_at: t.createdAt,
      expires_at: t.expiresAt,
      provider_two_factor: t.providerTwoFactor,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findRefreshToken(db: DbExecutor, tokenHash: string) {
  return db.selectFrom("refresh_tokens").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst();
}

/**
 * Retires a live token; false when it was already retired (another tab's rotation, or a replay).
 * Concurrent callers queue on the row, so exactly one of them gets true.
 */
export async function retireRefreshToken(db: DbExecutor, id: number, at: Date): Promise<boolean> {
  const rows = await db
    .updateTable("refresh_tokens")
    .set({ revoked_at: at })
    .where("id", "=", id)
    .where("revoked_at", "is", null)
    .returning("id")
    .execute();
  return rows.length === 1;
}

export async function linkRefreshSuccessor(db: DbExecutor, id: number, replacedById: number): Promise<void> {
  await db.updateTable("refresh_tokens").set({ replaced_by_id: replacedById }).where("id", "=", id).execute();
}

/** Ends a sign-in: every live token of its family. */
export async function revokeRefreshFamily(db: DbExecutor, familyId: string, at: Date): Promise<void> {
  await db
    .updateTable("refresh_tokens")
    .set({ revoked_at: at })
    .where("family_id", "=", familyId)
    .where("revoked_at", "is", null)
    .execute();
}

export async function revokeAllRefreshTokens(db: DbExecutor, userId: number, at: Date): Promise<void> {
  await db
    .updateTable("refresh_tokens")
    .set({ revoked_at: at })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .execute();
}

// --- fresh proofs (migration 030) --------------------------------------------------------

export async function upsertFreshProof(db: DbExecutor, sessionId: string, userId: number, at: Date): Promise<void> {
  await db
    .insertInto("fresh_proofs")
    .values({ session_id: sessionId, user_id: userId, proven_at: at })
    .onConflict((oc) => oc.column("session_id").doUpdateSet({ proven_at: at }).where("fresh_proofs.user_id", "=", userId))
    .execute();
  // Proofs older than a day serve nothing; each new one clears them away.
  await db.deleteFrom("fresh_proofs").where("proven_at", "<", new Date(at.getTime() - 86_400_000)).execute();
}

export async function findFreshProof(db: DbExecutor, sessionId: string, userId: number): Promise<Date | undefined> {
  const row = await db
    .selectFrom("fresh_proofs")
    .select("proven_at")
    .where("session_id", "=", sessionId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? new Date(row.proven_at) : undefined;
}

// --- one-time tokens (password reset, e-mail verification) --------------------------------

export async function insertOneTimeToken(
  db: DbExecutor,
  t: { userId: number; purpose: OneTimeTokenPurpose; tokenHash: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto("one_time_tokens")
    .values({
      user_id: t.userId,
      purpose: t.purpose,
      token_hash: t.tokenHash,
      created_at: t.createdAt,
      expires_at: t.expiresAt,
    })
    .execute();
}

export function findOneTimeToken(db: DbExecutor, tokenHash: string, purpose: OneTimeTokenPurpose) {
  return db
    .selectFrom("one_time_tokens")
    .select(["id", "user_id", "expires_at", "used_at"])
    .where("token_hash", "=", tokenHash)
    .where("purpose", "=", purpose)
    .executeTakeFirst();
}

/** Marks the token used if it still was usable at `at`; false if someone else got there first. */
export async function consumeOneTimeToken(db: DbExecutor, id: number, at: Date): Promise<boolean> {
  const rows = await db
    .updateTable("one_time_tokens")
    .set({ used_at: at })
    .where("id", "=", id)
    .where("used_at", "is", null)
    .where("expires_at", ">", at)
    .returning("id")
    .execute();
  return rows.length === 1;
}

/** Retires every other open link of this kind (a password change makes older reset mails void). */
export async function retireOneTimeTokens(
  db: DbExecutor,
  userId: number,
  purpose: OneTimeTokenPurpose,
  at: Date,
): Promise<void> {
  await db
    .updateTable("one_time_tokens")
    .set({ used_at: at })
    .where("user_id", "=", userId)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .execute();
}

export async function countOneTimeTokensSince(
  db: DbExecutor,
  userId: number,
  purpose: OneTimeTokenPurpose,
  since: Date,
): Promise<number> {
  const row = await db
    .selectFrom("one_time_tokens")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .where("purpose", "=", purpose)
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
