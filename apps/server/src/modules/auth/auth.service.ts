import { LIMITS, type LoginFailureReason, type LoginResponse, MESSAGES, type RefreshResponse, type SignedInResponse, ssoRequiredText } from "@tally/contract";
import { decodeJwt } from "jose";
import type { ServerContext } from "../../context.js";
import type { User } from "../../db/schema.js";
import { AppError, forbidden, tooManyRequests, unauthenticated } from "../../lib/errors.js";
import { ssoRequiredFor } from "../../lib/oidc-provider-config.js";
import { dummyHash, verifyPassword } from "../../lib/password-hash.js";
import { hasSecondFactor, openChallenge, secondFactorMethods } from "../mfa/mfa.service.js";
import { announceForceLogout, announceSignInEnded } from "../notifications/notifications.service.js";
import { demoClosesAccount } from "../scope/scope.policy.js";
import { type Caller, loadCaller } from "../scope/scope.service.js";
import { readDemoSettings } from "../scope/scope-settings.service.js";
import {
  findAccountById,
  findAccountsByLogin,
  loadSessionUser,
  recordLoginAttempt,
  setLastLogin,
} from "../users/accounts.service.js";
import { endSignIn, findRefreshToken, recordFreshProof, revokeAllSessions, rotateRefreshToken, startSignIn } from "../sessions/sessions.service.js";
import { signAccessToken, verifyAccessToken } from "./access-tokens.js";
import { reserveSignIn, settleSuccessfulSignIn } from "./login-throttle.js";

/** The caller of an authenticated request (request.user), loaded by the scope module. */
export type AuthUser = Caller;

/**
 * Turns a bearer token into the current user. The account is read from the database so a
 * deactivation or a session-version bump takes effect on the very next request.
 */
export async function authenticateToken(ctx: ServerContext, token: string): Promise<AuthUser> {
  const claims = await verifyAccessToken(ctx.config.secretKey, ctx.clock.now(), token);
  const loaded = await loadCaller(ctx.database.db, claims);
  if (!loaded) throw unauthenticated();
  if (!loaded.isActive) throw unauthenticated(MESSAGES.sessionExpired, "ACCOUNT_INACTIVE");
  if (loaded.caller.sessionVersion !== claims.sessionVersion) {
    throw unauthenticated(MESSAGES.sessionVersionMismatch, "SESSION_VERSION_MISMATCH");
  }
  // Signed out (or the sign-in's refresh token was caught being replayed): the access token dies with it.
  if (!loaded.sessionLive) throw unauthenticated(MESSAGES.sessionExpired);
  // Switching the demo off ends the demo school's open sessions on their next request.
  const { caller } = loaded;
  if (demoClosesAccount(caller.role, caller.schoolId, caller.demo)) throw unauthenticated(MESSAGES.demoSwitchedOff);
  return caller;
}

/** A token that is genuine and unexpired, checked by `authenticateToken` as every guard does. */
export type TokenSession =
  /** sessionId: the sign-in (refresh-token family); expiresAt: the token's exp; user: as request.user would be. */
  | { live: true; userId: number; sessionId: string; issuedAt: Date; expiresAt: Date; user: AuthUser }
  /** The sign-in was ended (session version bumped, account deactivated, sign-in revoked): the guard's 401. */
  | { live: false; userId: number; issuedAt: Date; refusal: AppError };

/**
 * For the live connection: a forged or expired token fails (401) as at every guard, but a
 * genuine one whose sign-in has just been ended is told apart, so the stream and the poll can
 * still hand over the FORCE_LOGOUT that ended it.
 */
export async function tokenSession(ctx: ServerContext, token: string): Promise<TokenSession> {
  const claims = await verifyAccessToken(ctx.config.secretKey, ctx.clock.now(), token);
  const { iat = 0, exp = 0 } = decodeJwt(token);
  const issuedAt = new Date(iat * 1000);
  try {
    const user = await authenticateToken(ctx, token);
    return { live: true, userId: user.id, sessionId: claims.sessionId, issuedAt, expiresAt: new Date(exp * 1000), user };
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 401) return { live: false, userId: claims.userId, issuedAt, refusal: err };
    throw err;
  }
}

/** How a sign-in was made, where it matters after it: a single sign-on provider's two factors. */
export interface SignInOrigin {
  /** The provider's `amr` showed two factors: the sign-in counts as two-factor (REQUIRE_MFA_FOR_ADMINS). */
  providerTwoFactor?: boolean;
  /** A single sign-on: the provider has just checked the person, which counts as a fresh proof (mfa-reauth.service.ts). */
  freshProof?: boolean;
}

/** A new sign-in: its refresh token, and an access token naming it. */
export async function issueTokens(ctx: ServerContext, user: Pick<User, "id" | "session_version">, origin: SignInOrigin = {}): Promise<RefreshResponse> {
  const now = ctx.clock.now();
  const { sessionId, refreshToken } = await startSignIn(ctx.database.db, user.id, now, origin);
  if (origin.freshProof) await recordFreshProof(ctx.database.db, sessionId, user.id, now);
  const token = await signAccessToken(ctx.config.secretKey, now, {
    userId: user.id,
    sessionVersion: user.session_version,
    sessionId,
    providerTwoFactor: origin.providerTwoFactor ?? false,
  });
  return { token, refreshToken };
}

export interface LoginAttempt {
  login: string;
  password: string;
  ipAddress: string;
  userAgent: string | null;
}

const invalidCredentials = () => new AppError(401, "INVALID_CREDENTIALS", MESSAGES.invalidCredentials);
/** requireSso: the provider the account's domain must sign in with, named in the refusal. */
const ssoRequired = (provider: string) => new AppError(403, "SSO_REQUIRED", ssoRequiredText(provider));

/** With both a username and an e-mail matching, the form of what was typed decides. */
function pickAccount(candidates: User[], typed: string, byEmail: boolean): User | undefined {
  const matches = (u: User) => (byEmail ? u.email : u.username).toLowerCase() === typed;
  return candidates.find(matches) ?? candidates[0];
}

/**
 * Unknown account, wrong password and deactivated account fail alike, after the same
 * password-hash work, so the answer reveals nothing about which accounts exist.
 */
export async function login(ctx: ServerContext, attempt: LoginAttempt): Promise<LoginResponse> {
  const db = ctx.database.db;
  const loginKey = attempt.login.trim().toLowerCase();
  const byEmail = loginKey.includes("@");
  const user = pickAccount(await findAccountsByLogin(db, loginKey), loginKey, byEmail);
  const now = ctx.clock.now();
  const log = (successful: boolean, failureReason: LoginFailureReason | null) =>
    recordLoginAttempt(db, {
      userId: user?.id ?? null,
      login: loginKey,
      loginMethod: byEmail ? "email" : "username",
      ipAddress: attempt.ipAddress,
      userAgent: attempt.userAgent?.slice(0, 512) ?? null,
      successful,
      failureReason,
      at: now,
    });

  // Reserved before the password is checked, in one statement per counter: a burst of
  // parallel attempts cannot all reach the hash, and guessing right during a lock gains nothing.
  const reservation = await reserveSignIn(db, { userId: user?.id ?? null, login: loginKey, address: attempt.ipAddress }, now);
  if (!reservation) {
    await log(false, "rate_limited");
    throw tooManyRequests(MESSAGES.tooManyAttempts, LIMITS.loginFailureWindowMinutes * 60);
  }

  // A typed address of a domain that must use single sign-on is refused before any password
  // work: the domain's rule is public, so this tells nothing about which accounts exist.
  const ssoForTyped = byEmail ? ssoRequiredFor(ctx.config.oidcProviders, loginKey) : undefined;
  if (ssoForTyped) {
    await log(false, "sso_required");
    throw ssoRequired(ssoForTyped.name);
  }

  const passwordOk = await verifyPassword(user?.password_hash ?? (await dummyHash()), attempt.password);
  if (!user || !user.is_active || !passwordOk) {
    await log(false, !user ? "unknown_user" : !user.is_active ? "inactive" : "wrong_password");
    throw invalidCredentials();
  }

  await settleSuccessfulSignIn(db, reservation, now);
  // Checked after the password (so it tells a guesser nothing) and after the throttle is
  // settled (the right password is no failed attempt, so it never locks the account out).
  if (demoClosesAccount(user.role, user.school_id, await readDemoSettings(db))) {
    await log(false, "demo_off");
    throw forbidden(MESSAGES.demoSwitchedOff);
  }
  // Signed in by username: the account's own address decides, told only to whoever knew the password.
  const ssoForAccount = ssoRequiredFor(ctx.config.oidcProviders, user.email);
  if (ssoForAccount) {
    await log(false, "sso_required");
    throw ssoRequired(ssoForAccount.name);
  }
  // An enrolled account gets a challenge instead of tokens; the sign-in is recorded when the
  // second factor finishes it (mfa-sign-in.service.ts).
  if (await hasSecondFactor(db, user.id)) {
    return { mfaRequired: true, challenge: await openChallenge(ctx, user.id, { loginMethod: byEmail ? "email" : "username" }), methods: await secondFactorMethods(db, user.id) };
  }
  await log(true, null);
  return finishSignIn(ctx, user);
}

/** The end of every sign-in: last login, the token pair, the user. */
export async function finishSignIn(ctx: ServerContext, user: Pick<User, "id" | "session_version">, origin: SignInOrigin = {}): Promise<SignedInResponse> {
  const db = ctx.database.db;
  await setLastLogin(db, user.id, ctx.clock.now());
  const tokens = await issueTokens(ctx, user, origin);
  const sessionUser = await loadSessionUser(db, user.id);
  if (!sessionUser) throw invalidCredentials();
  return { ...tokens, user: sessionUser };
}

async function endSessionsAfterReplay(ctx: ServerContext, userId: number, now: Date): Promise<never> {
  await ctx.database.db.transaction().execute(async (trx) => {
    await revokeAllSessions(trx, userId, now);
    await announceForceLogout(trx, userId, "SESSIONS_REVOKED", now);
  });
  throw unauthenticated(MESSAGES.sessionExpired);
}

/**
 * A new access token and the rotated refresh token (see rotateRefreshToken), for an account
 * that is still active. Presenting a copied refresh token ends every session of that user.
 */
export async function refresh(ctx: ServerContext, presented: string): Promise<RefreshResponse> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const row = await findRefreshToken(db, presented);
  if (!row) throw unauthenticated(MESSAGES.sessionExpired);
  const user = await findAccountById(db, row.user_id);
  if (!user || !user.is_active) {
    await revokeAllSessions(db, row.user_id, now);
    throw unauthenticated(MESSAGES.sessionExpired, "ACCOUNT_INACTIVE");
  }
  if (demoClosesAccount(user.role, user.school_id, await readDemoSettings(db))) throw unauthenticated(MESSAGES.demoSwitchedOff);

  const rotation = await rotateRefreshToken(ctx, row, presented, now);
  if (rotation === "expired") throw unauthenticated(MESSAGES.sessionExpired, "TOKEN_EXPIRED");
  if (rotation === "replayed") return endSessionsAfterReplay(ctx, user.id, now);
  const token = await signAccessToken(ctx.config.secretKey, now, {
    userId: user.id,
    sessionVersion: user.session_version,
    sessionId: row.family_id,
    // The sign-in's two factors at its provider, kept on every token of the family.
    providerTwoFactor: row.provider_two_factor,
  });
  return { token, refreshToken: rotation.refreshToken };
}

/**
 * Ends this sign-in: its refresh tokens, and with them (see authenticateToken) its access
 * tokens; its event streams, on every instance, end when this commits.
 */
export async function logout(ctx: ServerContext, presented: string | undefined): Promise<void> {
  if (!presented) return;
  const row = await findRefreshToken(ctx.database.db, presented);
  if (!row) return;
  await ctx.database.db.transaction().execute(async (trx) => {
    await endSignIn(trx, row.family_id, ctx.clock.now());
    await announceSignInEnded(trx, row.user_id, row.family_id);
  });
}
