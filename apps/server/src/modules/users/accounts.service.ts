import { type ForceLogoutReason, permissionsFor, type SessionUser } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import type { NewUser, User } from "../../db/schema.js";
import { conflict, notFound } from "../../lib/errors.js";
import { revokeAllSessions } from "../sessions/sessions.service.js";
import { announceForceLogout } from "../notifications/notifications.service.js";
import { schoolsByIds } from "../schools/schools.service.js";
import { schoolScope } from "../scope/scope.policy.js";
import * as repo from "./users.repository.js";

// Accounts as other modules (auth's sign-in and token flows, the CLI) read and change them:
// this module owns users, user_schools and login_logs.

export type { LoginLogEntry } from "./users.repository.js";

export function findAccountById(db: DbExecutor, id: number): Promise<User | undefined> {
  return repo.findUserById(db, id);
}

/** The account, or the 404 every account route gives for an unknown id. */
export async function requireAccount(db: DbExecutor, id: number): Promise<User> {
  const user = await repo.findUserById(db, id);
  if (!user) throw notFound("User not found");
  return user;
}

/** Accounts whose username or e-mail equals the lower-cased `login` (at most one of each). */
export function findAccountsByLogin(db: DbExecutor, login: string): Promise<User[]> {
  return repo.findUsersByLogin(db, login);
}

export function findAccountByEmail(db: DbExecutor, email: string): Promise<User | undefined> {
  return repo.findUserByEmail(db, email);
}

/**
 * The single sign-on provider account this account signs in with: linked on its first single
 * sign-on, or (already linked) the same one. False for another provider or another subject.
 */
export async function claimOidcLink(db: DbExecutor, user: Pick<User, "id" | "oidc_provider" | "oidc_subject">, provider: string, subject: string): Promise<boolean> {
  if (user.oidc_subject === null && (await repo.linkOidcSubject(db, user.id, provider, subject))) return true;
  // Linked already, or by a parallel first sign-in a moment ago: the link decides.
  const current = user.oidc_subject === null ? await repo.findUserById(db, user.id) : user;
  return current?.oidc_provider === provider && current.oidc_subject === subject;
}

const USERNAME_TAKEN = "Username already exists";
const EMAIL_TAKEN = "Email already exists";

/** A 409 when another account (any but `exceptUserId`) already uses this username or e-mail, ignoring case. */
export async function assertLoginsFree(
  db: DbExecutor,
  login: { username?: string | undefined; email?: string | undefined },
  exceptUserId?: number,
): Promise<void> {
  const taken = await repo.findLoginConflicts(db, login, exceptUserId);
  if (taken.usernameTaken) throw conflict(USERNAME_TAKEN);
  if (taken.emailTaken) throw conflict(EMAIL_TAKEN);
}

function isUniqueViolation(err: unknown): err is { code: string; constraint?: string; message: string } {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "23505";
}

/** Two simultaneous writes of the same name: the unique index decides, and the loser gets a 409. */
export async function withUniqueLogins<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw conflict(`${err.constraint ?? err.message}`.includes("email") ? EMAIL_TAKEN : USERNAME_TAKEN);
    }
    throw err;
  }
}

/** Inserts the account and its user_schools rows; run it in a transaction. */
export async function createAccount(db: DbExecutor, values: NewUser, schoolIds: number[]): Promise<User> {
  const user = await repo.insertUser(db, values);
  await repo.insertUserSchools(db, user.id, schoolIds);
  return user;
}

/**
 * Signs the user out everywhere: live access tokens fail with SESSION_VERSION_MISMATCH,
 * refresh tokens are revoked, and open clients get FORCE_LOGOUT with `reason` (at commit).
 * Call after any change an administrator makes to an account.
 */
export async function signOutEverywhere(
  db: DbExecutor,
  userId: number,
  reason: ForceLogoutReason,
  at: Date = new Date(),
): Promise<void> {
  const bump = async (trx: DbExecutor) => {
    await repo.incrementSessionVersion(trx, userId, at);
    await revokeAllSessions(trx, userId, at);
    await announceForceLogout(trx, userId, reason, at);
  };
  // Inside a caller's transaction the bump commits (or rolls back) with the account change.
  if (db.isTransaction) await bump(db);
  else await db.transaction().execute(bump);
}

/** A new password also proves the mailbox and ends other sessions (their tokens are the caller's to revoke). */
export function replacePassword(db: DbExecutor, userId: number, passwordHash: string, at: Date): Promise<void> {
  return repo.replacePassword(db, userId, passwordHash, at);
}

export function markEmailVerified(db: DbExecutor, userId: number, at: Date): Promise<void> {
  return repo.updateUser(db, userId, { email_verified: true, updated_at: at });
}

export function setLastLogin(db: DbExecutor, userId: number, at: Date): Promise<void> {
  return repo.updateUser(db, userId, { last_login: at });
}

/** Writes one sign-in attempt to the login history. */
export function recordLoginAttempt(db: DbExecutor, entry: repo.LoginLogEntry): Promise<void> {
  return repo.insertLoginLog(db, entry);
}

/** Whether the account signed in successfully from this address since `since` (null user: never). */
export function hasSignedInFrom(db: DbExecutor, userId: number | null, ipAddress: string, since: Date): Promise<boolean> {
  return repo.hasSignedInFrom(db, userId, ipAddress, since);
}

/** The profile shape returned by login, profile and register. Admins get empty school lists (they see all). */
export async function loadSessionUser(db: DbExecutor, userId: number): Promise<SessionUser | undefined> {
  const user = await repo.findUserById(db, userId);
  if (!user) return undefined;
  const assigned = user.role === "district_user" ? await repo.assignedSchoolIds(db, user.id) : [];
  const scope = schoolScope(user.role, user.school_id, assigned);
  const ids = scope === "all" ? [] : scope;
  const schools = await schoolsByIds(db, ids);
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    is_active: user.is_active,
    email_verified: user.email_verified,
    school_id: user.school_id,
    school_name: user.school_id === null ? null : (schools.find((s) => s.id === user.school_id)?.name ?? null),
    accessibleSchoolIds: ids,
    accessibleSchools: schools,
    permissions: permissionsFor(user.role),
    created_at: new Date(user.created_at).toISOString(),
    last_login: user.last_login ? new Date(user.last_login).toISOString() : null,
  };
}

/** Turns the account's weekly digest on or off (issue 30: the profile and the unsubscribe link). */
export function setDigestEnabled(db: DbExecutor, userId: number, enabled: boolean): Promise<void> {
  return repo.updateUser(db, userId, { digest_enabled: enabled });
}
