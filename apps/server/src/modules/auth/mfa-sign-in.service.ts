import { type LoginFailureReason, MESSAGES, type SignedInResponse } from "@tally/contract";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { FastifyBaseLogger } from "fastify";
import type { ServerContext } from "../../context.js";
import { AppError, tooManyRequests } from "../../lib/errors.js";
import { checkSecondFactor, findChallenge, requireCurrentTotpCode, useChallenge, type MfaAccount } from "../mfa/mfa.service.js";
import { checkPasskey, passkeyFailed } from "../mfa/passkeys.service.js";
import { findAccountById, recordLoginAttempt } from "../users/accounts.service.js";
import { finishSignIn } from "./auth.service.js";
import { reserveMfaCheck, settleMfaCheck, type ThrottleRefusal } from "./login-throttle.js";

export interface MfaVerifyAttempt {
  challenge: string;
  code: string;
  ipAddress: string;
  userAgent: string | null;
}

const challengeInvalid = () => new AppError(401, "MFA_CHALLENGE_INVALID", MESSAGES.mfaChallengeExpired);
/** Retry-After is what is left of the counter's window, not the window's full length. */
const tooManyCodes = (refusal: ThrottleRefusal) => tooManyRequests(MESSAGES.mfaTooManyAttempts, refusal.retryAfterSeconds);

/**
 * POST /auth/mfa/verify: the second step of signing in. The challenge names the account whose
 * password was right; a place on its counter is taken before the code is checked (so a burst
 * of guesses cannot all be checked), and the tokens are issued only once the challenge is used up.
 */
export async function verifySecondFactor(ctx: ServerContext, attempt: MfaVerifyAttempt, log: FastifyBaseLogger): Promise<SignedInResponse> {
  return finishSecondStep(ctx, attempt, async (user) => (await checkSecondFactor(ctx, user, attempt.code, log)) !== null, () => new AppError(401, "INVALID_MFA_CODE", MESSAGES.mfaInvalidCode));
}

/**
 * POST /auth/mfa/passkey/verify: the second step with a passkey instead of a code, on the same
 * challenge, counter and login history; the answer must sign the WebAuthn challenge that
 * POST /auth/mfa/passkey/options bound to this sign-in.
 */
export async function verifyPasskeySignIn(
  ctx: ServerContext,
  attempt: Omit<MfaVerifyAttempt, "code"> & { response: AuthenticationResponseJSON },
): Promise<SignedInResponse> {
  return finishSecondStep(ctx, attempt, (user, open) => checkPasskey(ctx, user, open.webauthn_challenge, attempt.response), passkeyFailed);
}

async function finishSecondStep(
  ctx: ServerContext,
  attempt: Omit<MfaVerifyAttempt, "code">,
  check: (user: Awaited<ReturnType<typeof findAccountById>> & object, open: NonNullable<Awaited<ReturnType<typeof findChallenge>>>) => Promise<boolean>,
  wrong: () => AppError,
): Promise<SignedInResponse> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const open = await findChallenge(ctx, attempt.challenge);
  if (!open) throw challengeInvalid();
  const user = await findAccountById(db, open.user_id);
  if (!user || !user.is_active) throw challengeInvalid();
  const record = (successful: boolean, failureReason: LoginFailureReason | null) =>
    recordLoginAttempt(db, {
      userId: user.id,
      // As the first step recorded it: a typed username, else the address (typed, or the provider's).
      login: open.origin.loginMethod === "username" ? user.username.toLowerCase() : user.email.toLowerCase(),
      loginMethod: open.origin.loginMethod,
      provider: open.origin.loginMethod === "oidc" ? open.origin.provider : null,
      ipAddress: attempt.ipAddress,
      userAgent: attempt.userAgent?.slice(0, 512) ?? null,
      successful,
      failureReason,
      at: now,
    });

  const reservation = await reserveMfaCheck(db, user.id, now);
  if ("retryAfterSeconds" in reservation) {
    await record(false, "mfa_rate_limited");
    throw tooManyCodes(reservation);
  }
  if (!(await check(user, open))) {
    await record(false, "wrong_mfa_code");
    throw wrong();
  }
  await settleMfaCheck(db, reservation);
  if (!(await useChallenge(ctx, attempt.challenge))) throw challengeInvalid();
  await record(true, null);
  // The second step of a single sign-on ends a sign-in the provider has just made: a fresh proof, as at the exchange.
  return finishSignIn(ctx, user, { freshProof: open.origin.loginMethod === "oidc" });
}

/**
 * A current code from a signed-in account's authenticator (to remove the factor or make new
 * recovery codes), on the same counter as sign-in, so a stolen session cannot guess its way in.
 */
export async function requireCurrentCode(ctx: ServerContext, account: MfaAccount, code: string): Promise<void> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const reservation = await reserveMfaCheck(db, account.id, now);
  if ("retryAfterSeconds" in reservation) throw tooManyCodes(reservation);
  await requireCurrentTotpCode(ctx, account, code);
  await settleMfaCheck(db, reservation);
}
