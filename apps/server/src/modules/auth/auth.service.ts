import { randomUUID } from "node:crypto";
import { LIMITS, type LoginResponse, MESSAGES, type RefreshResponse } from "@tally/contract";
import { decodeJwt } from "jose";
import type { ServerContext } from "../../context.js";
import type { User } from "../../db/schema.js";
import { AppError, forbidden, tooManyRequests, unauthenticated } from "../../lib/errors.js";
import { dummyHash, verifyPassword } from "../../lib/password-hash.js";
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
import * as repo from "./auth.repository.js";
import { reserveSignIn, settleSuccessfulSignIn } from "./login-throttle.js";
import { hashToken, randomToken, signAccessToken, successorRefreshToken, verifyAccessToken } from "./tokens.js";

/** The caller of an authenticated request (request.user), loaded by the scope module. */
export type AuthUser = Caller;

const MINUTE = 60_000;

/**
 * Turns a bearer token into the current user. The account is read from the database so a
 * deactivation or a session-version bump takes effect on the very next request.
 */
export async function authenticateToken(ctx: ServerContext, token: string): Promise<AuthUser> {
  const claims = await verifyAccessToken(ctx.config.secretKey, ctx.clock.now(), token);
  const loaded = await loadCaller(ctx.database.db, claims.userId, claims.sessionId);
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
  /** sessionId: the sign-in (refresh-token family); expiresAt: the token's exp. */
  | { live: true; userId: number; sessionId: string; issuedAt: Date; expiresAt: Date }
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
    return { live: true, userId: user.id, sessionId: claims.sessionId, issuedAt, expiresAt: new Date(exp * 1000) };
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 401) return { live: false, userId: claims.userId, issuedAt, refusal: err };
    throw err;
  }
}

const refreshExpiry = (now: Date) => new Date(now.getTime() + LIMITS.refreshTokenTtlDays * 24 * 60 * MINUTE);

/** A new sign-in: a refresh token starting a new family, and an access token naming it. */
async function issueTokens(ctx: ServerContext, user: Pick<User, "id" | "session_version">): Promise<RefreshResponse> {
  const now = ctx.clock.now();
  const refreshToken = randomToken();
  const familyId = randomUUID();
  await repo.insertRefreshToken(ctx.database.db, {
    userId: user.id,
    familyId,
    tokenHash: hashToken(refreshToken),
    createdAt: now,
    expiresAt: refreshExpiry(now),
  });
  const token = await signAccessToken(ctx.config.secretKey, now, {
    userId: user.id,
    sessionVersion: user.session_version,
    sessionId: familyId,
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
  const log = (successful: boolean, failureReason: string | null) =>
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
  await log(true, null);
  await setLastLogin(db, user.id, now);
  const tokens = await issueTokens(ctx, user);
  const sessionUser = await loadSessionUser(db, user.id);
  if (!sessionUser) throw invalidCredentials();
  return { ...tokens, user: sessionUser };
}

type RefreshRow = NonNullable<Awaited<ReturnType<typeof repo.findRefreshToken>>>;

/**
 * A token rotated moments ago by another tab of the same browser: within this window it is
 * answered with the same successor instead of being taken for a stolen copy.
 */
const ROTATION_GRACE_MS = 30_000;

async function withinRotationGrace(ctx: ServerContext, row: RefreshRow, presented: string, now: Date) {
  if (!row.revoked_at || row.replaced_by_id === null) return undefined;
  if (now.getTime() - new Date(row.revoked_at).getTime() > ROTATION_GRACE_MS) return undefined;
  const successor = successorRefreshToken(ctx.config.secretKey, presented);
  const next = await repo.findRefreshToken(ctx.database.db, hashToken(successor));
  if (!next || next.id !== row.replaced_by_id || next.revoked_at) return undefined;
  return successor;
}

async function endSessionsAfterReplay(ctx: ServerContext, userId: number, now: Date): Promise<never> {
  await ctx.database.db.transaction().execute(async (trx) => {
    await repo.revokeAllRefreshTokens(trx, userId, now);
    await announceForceLogout(trx, userId, "SESSIONS_REVOKED", now);
  });
  throw unauthenticated(MESSAGES.sessionExpired);
}

/**
 * Rotates a refresh token. The successor is derived from the presented token, so two tabs
 * refreshing at once both get the same new pair; presenting a retired token after the grace
 * window (or one retired by sign-out) means it was copied: every session of that user is ended.
 */
export async function refresh(ctx: ServerContext, presented: string): Promise<RefreshResponse> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const row = await repo.findRefreshToken(db, hashToken(presented));
  if (!row) throw unauthenticated(MESSAGES.sessionExpired);
  const user = await findAccountById(db, row.user_id);
  if (!user || !user.is_active) {
    await repo.revokeAllRefreshTokens(db, row.user_id, now);
    throw unauthenticated(MESSAGES.sessionExpired, "ACCOUNT_INACTIVE");
  }
  if (demoClosesAccount(user.role, user.school_id, await readDemoSettings(db))) throw unauthenticated(MESSAGES.demoSwitchedOff);
  const pairFor = async (refreshToken: string): Promise<RefreshResponse> => ({
    token: await signAccessToken(ctx.config.secretKey, now, {
      userId: user.id,
      sessionVersion: user.session_version,
      sessionId: row.family_id,
    }),
    refreshToken,
  });

  if (row.revoked_at) {
    const successor = await withinRotationGrace(ctx, row, presented, now);
    return successor ? pairFor(successor) : endSessionsAfterReplay(ctx, user.id, now);
  }
  if (new Date(row.expires_at).getTime() <= now.getTime()) {
    throw unauthenticated(MESSAGES.sessionExpired, "TOKEN_EXPIRED");
  }

  const successor = successorRefreshToken(ctx.config.secretKey, presented);
  const rotated = await db.transaction().execute(async (trx) => {
    // Retiring first makes a concurrent rotation of the same token wait here, then find it retired.
    if (!(await repo.retireRefreshToken(trx, row.id, now))) return false;
    const nextId = await repo.insertRefreshToken(trx, {
      userId: user.id,
      familyId: row.family_id,
      tokenHash: hashToken(successor),
      createdAt: now,
      expiresAt: refreshExpiry(now),
    });
    await repo.linkRefreshSuccessor(trx, row.id, nextId);
    return true;
  });
  if (rotated) return pairFor(successor);
  // Lost the race to another tab: its rotation has committed, so the grace rule now applies.
  const settled = await repo.findRefreshToken(db, hashToken(presented));
  const shared = settled ? await withinRotationGrace(ctx, settled, presented, now) : undefined;
  return shared ? pairFor(shared) : endSessionsAfterReplay(ctx, user.id, now);
}

/**
 * Ends this sign-in: its refresh tokens, and with them (see authenticateToken) its access
 * tokens; its event streams, on every instance, end when this commits.
 */
export async function logout(ctx: ServerContext, presented: string | undefined): Promise<void> {
  if (!presented) return;
  const row = await repo.findRefreshToken(ctx.database.db, hashToken(presented));
  if (!row) return;
  await ctx.database.db.transaction().execute(async (trx) => {
    await repo.revokeRefreshFamily(trx, row.family_id, ctx.clock.now());
    await announceSignInEnded(trx, row.user_id, row.family_id);
  });
}
