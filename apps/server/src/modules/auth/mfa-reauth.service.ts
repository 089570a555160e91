import { LIMITS, MESSAGES, type ReauthRequest, ssoRequiredText } from "@tally/contract";
import type { ServerContext } from "../../context.js";
import { AppError, tooManyRequests } from "../../lib/errors.js";
import { ssoRequiredFor } from "../../lib/oidc-provider-config.js";
import { verifyPassword } from "../../lib/password-hash.js";
import { hasFreshProof, recordFreshProof } from "../sessions/sessions.service.js";
import { findAccountById } from "../users/accounts.service.js";
import type { AuthUser } from "./auth.service.js";
import { reserveSignIn, settleSuccessfulSignIn } from "./login-throttle.js";
import { requireCurrentCode } from "./mfa-sign-in.service.js";

// Adding or removing a second factor needs more than a session token (which a thief may hold):
// the person proves again, within LIMITS.reauthFreshMinutes, that they hold the account. The
// time of the proof is kept per sign-in in the database (fresh_proofs), so any instance sees it.
// Proofs: the password; a current code from the authenticator app; or a single sign-on just
// made (the provider has just checked the person; the only proof an account of a requireSso
// domain, whose Tally password signs nothing in, has before it enrols a factor).

const reauthRequired = () => new AppError(403, "REAUTH_REQUIRED", MESSAGES.reauthRequired);

/** POST /auth/mfa/reauth: checks the password or code and records the proof on this sign-in. */
export async function proveAgain(ctx: ServerContext, caller: AuthUser, proof: ReauthRequest, ipAddress: string): Promise<void> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  if (proof.code !== undefined) {
    // On the second factor's own counter, as at sign-in. A wrong code is a 403: the session is
    // fine, and a 401 would send the web app to refresh it and try the code again.
    await requireCurrentCode(ctx, caller, proof.code).catch((err: unknown) => {
      if (err instanceof AppError && err.code === "INVALID_MFA_CODE") throw new AppError(403, "REAUTH_FAILED", MESSAGES.mfaInvalidCode);
      throw err;
    });
  } else {
    const account = await findAccountById(db, caller.id);
    if (!account) throw reauthRequired();
    // A domain that must use single sign-on: its password is no credential (POST /auth/login refuses it too).
    const sso = ssoRequiredFor(ctx.config.oidcProviders, account.email);
    if (sso) throw new AppError(403, "SSO_REQUIRED", ssoRequiredText(sso.name));
    // The sign-in counters: a stolen session guesses the password no faster than the sign-in page.
    const reservation = await reserveSignIn(db, { userId: account.id, login: account.username.toLowerCase(), address: ipAddress }, now);
    if (!reservation) throw tooManyRequests(MESSAGES.tooManyAttempts, LIMITS.loginFailureWindowMinutes * 60);
    if (!(await verifyPassword(account.password_hash, proof.password ?? ""))) throw new AppError(403, "REAUTH_FAILED", MESSAGES.reauthWrongPassword);
    await settleSuccessfulSignIn(db, reservation, now);
  }
  await recordFreshProof(db, caller.sessionId, caller.id, now);
}

/** 403 REAUTH_REQUIRED unless this sign-in proved its person again within the last few minutes. */
export async function requireFreshProof(ctx: ServerContext, caller: AuthUser): Promise<void> {
  const since = new Date(ctx.clock.now().getTime() - LIMITS.reauthFreshMinutes * 60_000);
  if (!(await hasFreshProof(ctx.database.db, caller.sessionId, caller.id, since))) throw reauthRequired();
}
