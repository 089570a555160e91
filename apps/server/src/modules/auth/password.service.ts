import { MESSAGES } from "@tally/contract";
import type { FastifyBaseLogger } from "fastify";
import type { ServerContext } from "../../context.js";
import { refuseCommonPassword } from "../../lib/common-passwords.js";
import { AppError } from "../../lib/errors.js";
import { hashPassword } from "../../lib/password-hash.js";
import { announceForceLogout } from "../notifications/notifications.service.js";
import { findAccountByEmail, findAccountById, replacePassword } from "../users/accounts.service.js";
import { runInBackground, sendInBackground } from "../mail/background-mail.js";
import {
  consumeOneTimeToken,
  countOneTimeTokensSince,
  findOneTimeToken,
  passwordResetLinkMail,
  retireOneTimeTokens,
  revokeAllSessions,
} from "../sessions/sessions.service.js";

const MINUTE = 60_000;
/** Self-service reset mails per account per hour; further requests get the same answer and no mail. */
const RESET_MAILS_PER_HOUR = 5;

export const invalidToken = (message: string) => new AppError(400, "INVALID_TOKEN", message);

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
  const user = await findAccountByEmail(db, email.trim());
  if (!user || !user.is_active) return;
  const recent = await countOneTimeTokensSince(db, user.id, "password_reset", new Date(now.getTime() - 60 * MINUTE));
  if (recent >= RESET_MAILS_PER_HOUR) {
    log.warn({ userId: user.id }, "password reset requests over the hourly limit; no mail sent");
    return;
  }
  sendInBackground(ctx, await passwordResetLinkMail(ctx, user), log);
}

/** The reset token if it is unused, unexpired and its account active; else undefined. */
async function usableResetToken(ctx: ServerContext, token: string) {
  const row = await findOneTimeToken(ctx.database.db, token, "password_reset");
  const now = ctx.clock.now().getTime();
  if (!row || row.used_at || new Date(row.expires_at).getTime() <= now) return undefined;
  const account = await findAccountById(ctx.database.db, row.user_id);
  return account?.is_active ? row : undefined;
}

export async function verifyResetToken(ctx: ServerContext, token: string): Promise<boolean> {
  return (await usableResetToken(ctx, token)) !== undefined;
}

class TokenAlreadyUsed extends Error {}

/**
 * Sets the new password from a reset link. The link works once; the change ends every
 * session (session version bump, refresh tokens revoked; open clients are told with
 * FORCE_LOGOUT PASSWORD_CHANGED) and voids other reset links.
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
      if (!(await consumeOneTimeToken(trx, row.id, now))) throw new TokenAlreadyUsed();
      await replacePassword(trx, row.user_id, passwordHash, now);
      await retireOneTimeTokens(trx, row.user_id, "password_reset", now);
      await revokeAllSessions(trx, row.user_id, now);
      await announceForceLogout(trx, row.user_id, "PASSWORD_CHANGED", now);
    });
  } catch (err) {
    if (err instanceof TokenAlreadyUsed) throw invalidToken(MESSAGES.resetInvalidLink);
    throw err;
  }
}
