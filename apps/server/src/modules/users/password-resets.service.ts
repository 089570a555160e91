import { MESSAGES } from "@tally/contract";
import type { FastifyBaseLogger } from "fastify";
import type { ServerContext } from "../../context.js";
import { refuseCommonPassword } from "../../lib/common-passwords.js";
import { AppError, badRequest } from "../../lib/errors.js";
import { recordChange } from "../audit/audit.service.js";
import { hashPassword } from "../../lib/password-hash.js";
import { passwordResetLinkMail } from "../sessions/sessions.service.js";
import { requireAccount, signOutEverywhere } from "./accounts.service.js";
import * as repo from "./users.repository.js";
import { type Actor, assertCanManage } from "./users.policy.js";

/**
 * Creates a reset link for the account and mails it, waiting for the mailer (admin actions
 * report failures). The account is read afresh: an edit may just have changed its address.
 */
export async function sendPasswordResetLink(ctx: ServerContext, userId: number, log?: FastifyBaseLogger): Promise<void> {
  const user = await requireAccount(ctx.database.db, userId);
  const mail = await passwordResetLinkMail(ctx, user);
  try {
    await ctx.mailer.send(mail);
  } catch (err) {
    log?.error({ err, userId: user.id }, "sending the password reset e-mail failed");
    throw new AppError(502, "INTERNAL", "Failed to send password reset");
  }
}

/**
 * An administrator mails a user a reset link: POST /auth/request-reset/:id, and
 * POST /users/:id/reset-password without a password.
 */
export async function requestPasswordReset(ctx: ServerContext, actor: Actor, id: number, log: FastifyBaseLogger): Promise<void> {
  const target = await requireAccount(ctx.database.db, id);
  assertCanManage(actor, target);
  // The link would be refused for a deactivated account; reactivation sends its own.
  if (!target.is_active) throw badRequest("This account is deactivated. Reactivate it to send a password reset.");
  await sendPasswordResetLink(ctx, target.id, log);
  // After the mail went out (a failed send changes nothing the owner could use); the link
  // itself is a secret and stays out of the log.
  await recordChange(ctx.database.db, {
    actorId: actor.id,
    action: "user.password_reset.sent",
    entity: "user",
    entityId: target.id,
    before: null,
    after: { email: target.email },
    at: ctx.clock.now(),
  });
}

/** POST /users/:id/reset-password: sets the given password, or e-mails a reset link when none is given. */
export async function resetPassword(
  ctx: ServerContext,
  actor: Actor,
  id: number,
  password: string | null | undefined,
  log: FastifyBaseLogger,
): Promise<string> {
  if (password === undefined || password === null) {
    await requestPasswordReset(ctx, actor, id, log);
    return MESSAGES.passwordResetSent;
  }
  const db = ctx.database.db;
  const target = await requireAccount(db, id);
  assertCanManage(actor, target);
  refuseCommonPassword(password);
  const passwordHash = await hashPassword(password);
  const now = ctx.clock.now();
  await db.transaction().execute(async (trx) => {
    await repo.updateUser(trx, id, { password_hash: passwordHash, updated_at: now });
    await signOutEverywhere(trx, id, "PASSWORD_CHANGED", now);
    // That it changed, never the password or its hash.
    await recordChange(trx, { actorId: actor.id, action: "user.password.set", entity: "user", entityId: id, before: null, after: { password: "changed" }, at: now });
  });
  return `Password for ${target.username} has been updated`;
}
