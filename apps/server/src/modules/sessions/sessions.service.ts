import { randomUUID } from "node:crypto";
import { LIMITS } from "@tally/contract";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import type { OneTimeTokenPurpose } from "../../db/schema.js";
import type { MailMessage } from "../../lib/mailer.js";
import { emailVerificationMail, passwordResetMail } from "./one-time-link-mails.js";
import * as repo from "./sessions.repository.js";
import { hashToken, randomToken, successorRefreshToken } from "./session-tokens.js";

// Sign-ins (refresh_tokens: one family of rotated tokens per sign-in) and one-time links
// (one_time_tokens: password reset, e-mail verification), with their mails. Auth signs people
// in and out through it, users ends sessions and sends links through it; it imports neither.

const MINUTE = 60_000;

/** A sign-in's refresh token as stored (its digest, family, and when it was retired). */
export type StoredRefreshToken = NonNullable<Awaited<ReturnType<typeof repo.findRefreshToken>>>;

const refreshExpiry = (now: Date) => new Date(now.getTime() + LIMITS.refreshTokenTtlDays * 24 * 60 * MINUTE);

/**
 * A new sign-in: a refresh token starting a new family, whose id the access tokens carry.
 * providerTwoFactor: a single sign-on provider vouched for two factors (its `amr`); the family
 * keeps it through every rotation, so the sign-in stays two-factor for its whole life.
 */
export async function startSignIn(
  db: DbExecutor,
  userId: number,
  now: Date,
  opts: { providerTwoFactor?: boolean } = {},
): Promise<{ sessionId: string; refreshToken: string }> {
  const refreshToken = randomToken();
  const sessionId = randomUUID();
  await repo.insertRefreshToken(db, {
    userId,
    familyId: sessionId,
    tokenHash: hashToken(refreshToken),
    createdAt: now,
    expiresAt: refreshExpiry(now),
    providerTwoFactor: opts.providerTwoFactor ?? false,
  });
  return { sessionId, refreshToken };
}

/**
 * The sign-in proved its person again at `at` (a password or current code typed again, or a
 * single sign-on just made): adding or removing a second factor is allowed for a few minutes.
 */
export function recordFreshProof(db: DbExecutor, sessionId: string, userId: number, at: Date): Promise<void> {
  return repo.upsertFreshProof(db, sessionId, userId, at);
}

/** Whether the sign-in proved its person again at or after `since`. */
export async function hasFreshProof(db: DbExecutor, sessionId: string, userId: number, since: Date): Promise<boolean> {
  const provenAt = await repo.findFreshProof(db, sessionId, userId);
  return provenAt !== undefined && provenAt.getTime() >= since.getTime();
}

/** The stored token a presented refresh token is, live or retired; undefined for one never issued. */
export function findRefreshToken(db: DbExecutor, presented: string): Promise<StoredRefreshToken | undefined> {
  return repo.findRefreshToken(db, hashToken(presented));
}

/**
 * A token rotated moments ago by another tab of the same browser: within this window it is
 * answered with the same successor instead of being taken for a stolen copy.
 */
const ROTATION_GRACE_MS = 30_000;

async function withinRotationGrace(ctx: ServerContext, row: StoredRefreshToken, presented: string, now: Date) {
  if (!row.revoked_at || row.replaced_by_id === null) return undefined;
  if (now.getTime() - new Date(row.revoked_at).getTime() > ROTATION_GRACE_MS) return undefined;
  const successor = successorRefreshToken(ctx.config.secretKey, presented);
  const next = await repo.findRefreshToken(ctx.database.db, hashToken(successor));
  if (!next || next.id !== row.replaced_by_id || next.revoked_at) return undefined;
  return successor;
}

/**
 * What presenting a refresh token comes to: its successor; `expired`, a live token past its
 * life; `replayed`, a retired token outside the rotation grace (or one retired by sign-out),
 * which means it was copied.
 */
export type Rotation = { refreshToken: string } | "expired" | "replayed";

/**
 * Rotates a refresh token. The successor is derived from the presented token, so two tabs
 * refreshing at once both get the same new token.
 */
export async function rotateRefreshToken(ctx: ServerContext, row: StoredRefreshToken, presented: string, now: Date): Promise<Rotation> {
  if (row.revoked_at) {
    const successor = await withinRotationGrace(ctx, row, presented, now);
    return successor ? { refreshToken: successor } : "replayed";
  }
  if (new Date(row.expires_at).getTime() <= now.getTime()) return "expired";

  const successor = successorRefreshToken(ctx.config.secretKey, presented);
  const rotated = await ctx.database.db.transaction().execute(async (trx) => {
    // Retiring first makes a concurrent rotation of the same token wait here, then find it retired.
    if (!(await repo.retireRefreshToken(trx, row.id, now))) return false;
    const nextId = await repo.insertRefreshToken(trx, {
      userId: row.user_id,
      familyId: row.family_id,
      tokenHash: hashToken(successor),
      createdAt: now,
      expiresAt: refreshExpiry(now),
      providerTwoFactor: row.provider_two_factor,
    });
    await repo.linkRefreshSuccessor(trx, row.id, nextId);
    return true;
  });
  if (rotated) return { refreshToken: successor };
  // Lost the race to another tab: its rotation has committed, so the grace rule now applies.
  const settled = await findRefreshToken(ctx.database.db, presented);
  const shared = settled ? await withinRotationGrace(ctx, settled, presented, now) : undefined;
  return shared ? { refreshToken: shared } : "replayed";
}

/** Ends one sign-in: every live token of its family. */
export async function endSignIn(db: DbExecutor, sessionId: string, at: Date): Promise<void> {
  await repo.revokeRefreshFamily(db, sessionId, at);
}

/** Ends every sign-in of the user: its refresh tokens, and with them (see authenticateToken) its access tokens. */
export async function revokeAllSessions(db: DbExecutor, userId: number, at: Date): Promise<void> {
  await repo.revokeAllRefreshTokens(db, userId, at);
}

/** Stores the digest of a new one-time token and returns the token itself, for the link. */
export async function createOneTimeToken(
  ctx: ServerContext,
  userId: number,
  purpose: OneTimeTokenPurpose,
  ttlMinutes: number,
): Promise<string> {
  const token = randomToken();
  const now = ctx.clock.now();
  await repo.insertOneTimeToken(ctx.database.db, {
    userId,
    purpose,
    tokenHash: hashToken(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlMinutes * MINUTE),
  });
  return token;
}

/** An account as a link's mail addresses it. */
export interface LinkRecipient {
  id: number;
  email: string;
  username: string;
}

/** A new password reset link for the account (it lasts LIMITS.resetTokenTtlMinutes), as the mail that carries it. */
export async function passwordResetLinkMail(ctx: ServerContext, to: LinkRecipient): Promise<MailMessage> {
  const token = await createOneTimeToken(ctx, to.id, "password_reset", LIMITS.resetTokenTtlMinutes);
  return passwordResetMail(ctx.config.appUrl, to.email, to.username, token);
}

/** A new e-mail verification link for the account (it lasts LIMITS.verifyTokenTtlHours), as the mail that carries it. */
export async function emailVerificationLinkMail(ctx: ServerContext, to: LinkRecipient): Promise<MailMessage> {
  const token = await createOneTimeToken(ctx, to.id, "email_verify", LIMITS.verifyTokenTtlHours * 60);
  return emailVerificationMail(ctx.config.appUrl, to.email, to.username, token);
}

/** How many links of this kind the account was sent since `since` (the hourly cap on reset mails). */
export function countOneTimeTokensSince(db: DbExecutor, userId: number, purpose: OneTimeTokenPurpose, since: Date): Promise<number> {
  return repo.countOneTimeTokensSince(db, userId, purpose, since);
}

/** The stored link a presented one-time token is, used or not; undefined for one never issued (or of another purpose). */
export function findOneTimeToken(db: DbExecutor, presented: string, purpose: OneTimeTokenPurpose) {
  return repo.findOneTimeToken(db, hashToken(presented), purpose);
}

/** Marks the link used if it still was usable at `at`; false if someone else got there first. */
export function consumeOneTimeToken(db: DbExecutor, id: number, at: Date): Promise<boolean> {
  return repo.consumeOneTimeToken(db, id, at);
}

/** Retires every other open link of this kind (a password change makes older reset mails void). */
export function retireOneTimeTokens(db: DbExecutor, userId: number, purpose: OneTimeTokenPurpose, at: Date): Promise<void> {
  return repo.retireOneTimeTokens(db, userId, purpose, at);
}
