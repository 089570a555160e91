import { randomBytes } from "node:crypto";
import { LIMITS, MESSAGES, type MfaMethod, TOTP_CODE_PATTERN } from "@tally/contract";
import type { FastifyBaseLogger } from "fastify";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import { AppError, badRequest, conflict } from "../../lib/errors.js";
import { keyedHash, openSecret, sealSecret } from "../../lib/secret-box.js";
import { recordChange } from "../audit/audit.service.js";
import { sendInBackground } from "../mail/background-mail.js";
import { type SecondFactorEvent, secondFactorMail } from "./mfa-mail.js";
import * as repo from "./mfa.repository.js";
import { countPasskeys } from "./passkeys.repository.js";
import { hashRecoveryCode, newRecoveryCodes } from "./recovery-codes.js";
import { checkTotpCode, newTotpSecret, totpEnrolment } from "./totp.js";

export type { ChallengeOrigin } from "./mfa.repository.js";

const TOTP_PURPOSE = "mfa totp secret";
const CHALLENGE_PURPOSE = "mfa challenge";

/** The account a second-factor change is about. */
export interface MfaAccount {
  id: number;
  username: string;
  email: string;
}

/** The key of the second factor's secrets at rest: MFA_ENCRYPTION_KEY, else SECRET_KEY. */
const mfaKey = (ctx: ServerContext) => ctx.config.mfaEncryptionKey ?? ctx.config.secretKey;

const invalidCode = () => new AppError(401, "INVALID_MFA_CODE", MESSAGES.mfaInvalidCode);

/** Whether the account has a confirmed second factor (sign-in then asks for it). */
export async function hasSecondFactor(db: DbExecutor, userId: number): Promise<boolean> {
  return Boolean((await repo.findTotp(db, userId))?.confirmed_at);
}

export async function secondFactorStatus(db: DbExecutor, userId: number): Promise<{ totp: boolean; passkeys: number; recoveryCodesLeft: number }> {
  const totp = await hasSecondFactor(db, userId);
  if (!totp) return { totp, passkeys: 0, recoveryCodesLeft: 0 };
  return { totp, passkeys: await countPasskeys(db, userId), recoveryCodesLeft: await repo.countRecoveryCodesLeft(db, userId) };
}

/** The methods an enrolled account may finish signing in with: a passkey only once one is registered. */
export async function secondFactorMethods(db: DbExecutor, userId: number): Promise<MfaMethod[]> {
  return (await countPasskeys(db, userId)) > 0 ? ["totp", "passkey", "recovery"] : ["totp", "recovery"];
}

function tell(ctx: ServerContext, account: MfaAccount, event: SecondFactorEvent, log: FastifyBaseLogger, codesLeft?: number): void {
  sendInBackground(ctx, secondFactorMail(account.email, event, { codesLeft, appUrl: ctx.config.appUrl }), log);
}

/** POST /auth/mfa/totp/enroll: a new key, kept sealed until a code from it confirms it. */
export async function startTotpEnrolment(ctx: ServerContext, account: MfaAccount) {
  const secret = newTotpSecret();
  const saved = await repo.savePendingTotp(ctx.database.db, account.id, sealSecret(mfaKey(ctx), TOTP_PURPOSE, secret), ctx.clock.now());
  if (!saved) throw conflict(MESSAGES.mfaAlreadyEnrolled);
  return { secret, ...(await totpEnrolment(secret, account.email)) };
}

/**
 * The step of a right code for this key at `now`, taken so it works only once; null for a
 * wrong, replayed or out-of-window code.
 */
async function takeTotpCode(ctx: ServerContext, db: DbExecutor, userId: number, sealed: string, code: string): Promise<boolean> {
  const secret = openSecret(mfaKey(ctx), TOTP_PURPOSE, sealed);
  // A key sealed under another SECRET_KEY cannot be read: the account needs an admin's reset.
  if (secret === undefined) return false;
  const step = checkTotpCode(secret, code, ctx.clock.now());
  return step !== null && repo.takeTotpStep(db, userId, step);
}

/** POST /auth/mfa/totp/confirm: the first code turns the key on and hands out the recovery codes. */
export async function confirmTotpEnrolment(ctx: ServerContext, account: MfaAccount, code: string, log: FastifyBaseLogger): Promise<string[]> {
  const now = ctx.clock.now();
  const codes = newRecoveryCodes();
  await ctx.database.db.transaction().execute(async (trx) => {
    const row = await repo.findTotp(trx, account.id);
    if (!row) throw badRequest(MESSAGES.mfaNotStarted);
    if (row.confirmed_at) throw conflict(MESSAGES.mfaAlreadyEnrolled);
    if (!(await takeTotpCode(ctx, trx, account.id, row.secret, code))) throw invalidCode();
    if (!(await repo.confirmTotp(trx, account.id, now))) throw conflict(MESSAGES.mfaAlreadyEnrolled);
    await repo.replaceRecoveryCodes(trx, account.id, codes.map((c) => hashRecoveryCode(mfaKey(ctx), c)));
    await recordChange(trx, { actorId: account.id, action: "mfa.totp.enrolled", entity: "user", entityId: account.id, before: null, after: { totp: true }, at: now });
  });
  tell(ctx, account, "enrolled", log);
  return codes;
}

/**
 * Checks a second-factor code of an enrolled account: a TOTP code (each works once) or a
 * recovery code (used up, recorded and mailed). The method it was, or null when wrong.
 */
export async function checkSecondFactor(
  ctx: ServerContext,
  account: MfaAccount,
  code: string,
  log: FastifyBaseLogger,
): Promise<"totp" | "recovery" | null> {
  const db = ctx.database.db;
  const row = await repo.findTotp(db, account.id);
  if (!row?.confirmed_at) return null;
  const typed = code.replace(/\s+/g, "");
  if (TOTP_CODE_PATTERN.test(typed)) return (await takeTotpCode(ctx, db, account.id, row.secret, typed)) ? "totp" : null;

  const now = ctx.clock.now();
  const used = await db.transaction().execute(async (trx) => {
    if (!(await repo.useRecoveryCode(trx, account.id, hashRecoveryCode(mfaKey(ctx), typed), now))) return undefined;
    const left = await repo.countRecoveryCodesLeft(trx, account.id);
    await recordChange(trx, { actorId: account.id, action: "mfa.recovery_code.used", entity: "user", entityId: account.id, before: null, after: { recoveryCodesLeft: left }, at: now });
    return { left };
  });
  if (!used) return null;
  tell(ctx, account, "recovery_code_used", log, used.left);
  return "recovery";
}

/** A current TOTP code of an enrolled account, taken (so it cannot be used again), or 401. */
export async function requireCurrentTotpCode(ctx: ServerContext, account: MfaAccount, code: string): Promise<void> {
  const row = await repo.findTotp(ctx.database.db, account.id);
  if (!row?.confirmed_at) throw badRequest(MESSAGES.mfaNotEnrolled);
  if (!(await takeTotpCode(ctx, ctx.database.db, account.id, row.secret, code))) throw invalidCode();
}

/** DELETE /auth/mfa/totp, after requireCurrentTotpCode: the key and the recovery codes go. */
export async function removeSecondFactor(ctx: ServerContext, account: MfaAccount, log: FastifyBaseLogger): Promise<void> {
  const now = ctx.clock.now();
  await ctx.database.db.transaction().execute(async (trx) => {
    await repo.deleteSecondFactor(trx, account.id);
    await repo.deleteChallengesOf(trx, account.id);
    await recordChange(trx, { actorId: account.id, action: "mfa.totp.removed", entity: "user", entityId: account.id, before: { totp: true }, after: { totp: false }, at: now });
  });
  tell(ctx, account, "removed", log);
}

/** POST /auth/mfa/recovery-codes, after requireCurrentTotpCode: ten new codes, the old ones void. */
export async function regenerateRecoveryCodes(ctx: ServerContext, account: MfaAccount, log: FastifyBaseLogger): Promise<string[]> {
  const now = ctx.clock.now();
  const codes = newRecoveryCodes();
  await ctx.database.db.transaction().execute(async (trx) => {
    await repo.replaceRecoveryCodes(trx, account.id, codes.map((c) => hashRecoveryCode(mfaKey(ctx), c)));
    await recordChange(trx, { actorId: account.id, action: "mfa.recovery_codes.regenerated", entity: "user", entityId: account.id, before: null, after: { recoveryCodes: codes.length }, at: now });
  });
  tell(ctx, account, "recovery_codes_regenerated", log);
  return codes;
}

/** An administrator's reset of another account's second factor (the policy is checked by the caller). */
export async function resetSecondFactor(ctx: ServerContext, actorId: number, account: MfaAccount, log: FastifyBaseLogger): Promise<void> {
  const now = ctx.clock.now();
  const had = await ctx.database.db.transaction().execute(async (trx) => {
    const removed = await repo.deleteSecondFactor(trx, account.id);
    await repo.deleteChallengesOf(trx, account.id);
    await recordChange(trx, { actorId, action: "mfa.reset", entity: "user", entityId: account.id, before: { totp: removed }, after: { totp: false }, at: now });
    return removed;
  });
  if (had) tell(ctx, account, "reset", log);
}

/**
 * A new challenge for an account whose first step was right (its password, or a single sign-on
 * without the provider's two factors): the text goes to the client, its hash is kept.
 */
export async function openChallenge(ctx: ServerContext, userId: number, origin: repo.ChallengeOrigin): Promise<string> {
  const now = ctx.clock.now();
  const challenge = randomBytes(32).toString("base64url");
  await repo.insertChallenge(
    ctx.database.db,
    {
      idHash: keyedHash(mfaKey(ctx), CHALLENGE_PURPOSE, challenge),
      userId,
      origin,
      expiresAt: new Date(now.getTime() + LIMITS.mfaChallengeTtlMinutes * 60_000),
    },
    now,
  );
  return challenge;
}

/** The challenge's account while it is open (unused, unexpired). */
export async function findChallenge(ctx: ServerContext, challenge: string) {
  return repo.findOpenChallenge(ctx.database.db, keyedHash(mfaKey(ctx), CHALLENGE_PURPOSE, challenge), ctx.clock.now());
}

/** Uses the challenge up; false when it was used (a parallel verify) or expired meanwhile. */
export async function useChallenge(ctx: ServerContext, challenge: string): Promise<boolean> {
  return repo.useChallenge(ctx.database.db, keyedHash(mfaKey(ctx), CHALLENGE_PURPOSE, challenge), ctx.clock.now());
}
