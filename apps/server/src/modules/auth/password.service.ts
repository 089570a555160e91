import { LIMITS, MESSAGES, type Role } from "@tally/contract";
import type { FastifyBaseLogger } from "fastify";
import type { ServerContext } from "../../context.js";
import type { OneTimeTokenPurpose } from "../../db/schema.js";
import { refuseCommonPassword } from "../../lib/common-passwords.js";
import { AppError, badRequest, forbidden, notFound } from "../../lib/errors.js";
import { hashPassword } from "../../lib/password-hash.js";
import { passwordResetMail, runInBackground, sendInBackground } from "./auth-mail.js";
import { canManageAccount } from "./auth.policy.js";
import * as repo from "./auth.repository.js";
import { hashToken, randomToken } from "./tokens.js";

const MINUTE = 60_000;
/** Self-service reset mails per account per hour; further requests get the same answer and no mail. */
const RESET_MAILS_PER_HOUR = 5;

export const invalidToken = (message: string) => new AppError(400, "INVALID_TOKEN", message);

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

/** Creates a reset link for the user and mails it, waiting for the mailer (admin actions report failures). */
export async function sendPasswordResetLink(
  ctx: ServerContext,
  userId: number,
  log?: FastifyBaseLogger,
): Promise<void> {
  const user = await repo.findUserById(ctx.database.db, userId);
  if (!user) throw notFound("User not found");
  const token = await createOneTimeToken(ctx, user.id, "password_reset", LIMITS.resetTokenTtlMinutes);
  try {
    await ctx.mailer.send(passwordResetMail(ctx.config.appUrl, user.email, user.username, token));
  } catch (err) {
    log?.error({ err, userId }, "sending the password reset e-mail failed");
    throw new AppError(502, "INTERNAL", "Failed to send password reset");
  }
}

/** POST /auth/request-reset/:id: an administrator sends a user a reset link. */
export async function requestResetFor(
  ctx: ServerContext,
  actorRole: Role,
  userId: number,
  log: FastifyBaseLogger,
): Promise<void> {
  const target = await repo.findUserById(ctx.database.db, userId);
  if (!target) throw notFound("User not found");
  if (!canManageAccount(actorRole, target.role)) throw forbidden();
  // The link would be refused for a deactivated account; reactivation sends its own.
  if (!target.is_active) throw badRequest("This account is deactivated. Reactivate it to send a password reset.");
  await sendPasswordResetLink(ctx, target.id, log);
}

/**
 * POST /auth/forgot-password: the lookup, the token and the mail all run after the reply, so
 * neither its text nor its timing tells whether the address has an account.
 */
export function forgotPasswordInBackground(ctx: ServerContext, email: string, log: FastifyBaseLogger): void {
  runInBackground(
    ctx,
    () => forgotPassword(ctx, email, log),
    (err) => log.error({ err }, "handling a password reset request failed"),
  );
}

/** The work behind forgot-password, run after the reply. */
async function forgotPassword(ctx: ServerContext, email: string, log: FastifyBaseLogger): Promise<void> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const user = await repo.findUserByEmail(db, email.trim());
  if (!user || !user.is_active) return;
  const recent = await repo.countOneTimeTokensSince(db, user.id, "password_reset", new Date(now.getTime() - 60 * MINUTE));
  if (recent >= RESET_MAILS_PER_HOUR) {
    log.warn({ userId: user.id }, "password reset requests over the hourly limit; no mail sent");
    return;
  }
  const token = await createOneTimeToken(ctx, user.id, "password_reset", LIMITS.resetTokenTtlMinutes);
  sendInBackground(ctx, passwordResetMail(ctx.config.appUrl, user.email, user.username, token), log);
}

async function usableResetToken(ctx: ServerContext, token: string) {
  const row = await repo.findOneTimeToken(ctx.database.db, hashToken(token), "password_reset");
  const now = ctx.clock.now().getTime();
  if (!row || row.used_at || new Date(row.expires_at).getTime() <= now || !row.is_active) return undefined;
  return row;
}

export async function verifyResetToken(ctx: ServerContext, token: string): Promise<boolean> {
  return (await usableResetToken(ctx, token)) !== undefined;
}

class TokenAlreadyUsed extends Error {}

/**
 * Sets the new password from a reset link. The link works once; the change ends every
 * session (session version bump, refresh tokens revoked) and voids other reset links.
 */
export async function setPasswordWithToken(ctx: ServerContext, token: string, password: string): Promise<void> {
  const row = await usableResetToken(ctx, token);
  if (!row) throw invalidToken(MESSAGES.resetInvalidLink);
  refuseCommonPassword(password);
  // Hash outside the transaction: it is slow and must not hold a connection.
  const passwordHash = await hashPassword(password);
  const now = ctx.clock.now();
  try {
    await ctx.database.db.transaction().execute(async (trx) => {
      if (!(await repo.consumeOneTimeToken(trx, row.id, now))) throw new TokenAlreadyUsed();
      await repo.replacePassword(trx, row.user_id, passwordHash, now);
      await repo.retireOneTimeTokens(trx, row.user_id, "password_reset", now);
      await repo.revokeAllRefreshTokens(trx, row.user_id, now);
    });
  } catch (err) {
    if (err instanceof TokenAlreadyUsed) throw invalidToken(MESSAGES.resetInvalidLink);
    throw err;
  }
}
