import { type Kysely, sql } from "kysely";
import type { Database, LoginLogsTable, NewUser, OneTimeTokenPurpose, User } from "../../db/schema.js";
import { type VisibilityRow, visibilityRowsJson } from "../scope/scope.repository.js";

type Db = Kysely<Database>;

// --- users -------------------------------------------------------------------------------

/** An account with what every authenticated request needs to work out the caller's scope. */
export interface CallerRow extends User {
  /** user_schools rows (district users' schools), by id. */
  assigned_school_ids: number[];
  /** Every cohort visibility setting (listVisibilityRows' rows). */
  cohort_visibility: VisibilityRow[];
  /** Whether the sign-in the access token belongs to still has a live refresh token. */
  session_live: boolean;
}

/**
 * The account, its assigned schools and the cohort visibility settings in one statement: on
 * the embedded engine every statement waits its turn in one worker, so each request pays for
 * one round trip here, not three.
 */
export async function findCallerById(db: Db, id: number, sessionId: string): Promise<CallerRow | undefined> {
  return db
    .selectFrom("users")
    .selectAll("users")
    .select([
      sql<boolean>`exists(select 1 from refresh_tokens rt where rt.family_id = ${sessionId} and rt.user_id = users.id and rt.revoked_at is null)`.as(
        "session_live",
      ),
      sql<number[]>`array(select us.school_id from user_schools us where us.user_id = users.id order by us.school_id)`.as(
        "assigned_school_ids",
      ),
      visibilityRowsJson().as("cohort_visibility"),
    ])
    .where("users.id", "=", id)
    .executeTakeFirst();
}

export function findUserById(db: Db, id: number): Promise<User | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Accounts whose username or e-mail equals `login` ignoring case (at most one of each). */
export function findUsersByLogin(db: Db, login: string): Promise<User[]> {
  return db
    .selectFrom("users")
    .selectAll()
    .where((eb) =>
      eb.or([eb(eb.fn("lower", ["username"]), "=", login), eb(eb.fn("lower", ["email"]), "=", login)]),
    )
    .limit(2)
    .execute();
}

export function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return db
    .selectFrom("users")
    .selectAll()
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()))
    .executeTakeFirst();
}

export async function findLoginConflicts(
  db: Db,
  username: string,
  email: string,
): Promise<{ usernameTaken: boolean; emailTaken: boolean }> {
  const rows = await db
    .selectFrom("users")
    .select(["username", "email"])
    .where((eb) =>
      eb.or([
        eb(eb.fn("lower", ["username"]), "=", username.toLowerCase()),
        eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()),
      ]),
    )
    .execute();
  return {
    usernameTaken: rows.some((r) => r.username.toLowerCase() === username.toLowerCase()),
    emailTaken: rows.some((r) => r.email.toLowerCase() === email.toLowerCase()),
  };
}

export function insertUser(db: Db, values: NewUser): Promise<User> {
  return db.insertInto("users").values(values).returningAll().executeTakeFirstOrThrow();
}

export async function insertUserSchools(db: Db, userId: number, schoolIds: number[]): Promise<void> {
  if (schoolIds.length === 0) return;
  await db
    .insertInto("user_schools")
    .values(schoolIds.map((school_id) => ({ user_id: userId, school_id })))
    .execute();
}

export async function assignedSchoolIds(db: Db, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom("user_schools")
    .select("school_id")
    .where("user_id", "=", userId)
    .orderBy("school_id")
    .execute();
  return rows.map((r) => r.school_id);
}

export function schoolsByIds(db: Db, ids: number[]): Promise<Array<{ id: number; name: string }>> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom("schools").select(["id", "name"]).where("id", "in", ids).orderBy("name").orderBy("id").execute();
}

export async function countExistingSchools(db: Db, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const row = await db
    .selectFrom("schools")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("id", "in", ids)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setLastLogin(db: Db, userId: number, at: Date): Promise<void> {
  await db.updateTable("users").set({ last_login: at }).where("id", "=", userId).execute();
}

/** Every access token issued before this stops working on its next request. */
export async function incrementSessionVersion(db: Db, userId: number, at: Date): Promise<void> {
  await db
    .updateTable("users")
    .set((eb) => ({ session_version: eb("session_version", "+", 1), updated_at: at }))
    .where("id", "=", userId)
    .execute();
}

/** A new password also proves the mailbox (the link came by e-mail) and ends other sessions. */
export async function replacePassword(db: Db, userId: number, passwordHash: string, at: Date): Promise<void> {
  await db
    .updateTable("users")
    .set((eb) => ({
      password_hash: passwordHash,
      email_verified: true,
      session_version: eb("session_version", "+", 1),
      updated_at: at,
    }))
    .where("id", "=", userId)
    .execute();
}

export async function markEmailVerified(db: Db, userId: number, at: Date): Promise<void> {
  await db.updateTable("users").set({ email_verified: true, updated_at: at }).where("id", "=", userId).execute();
}

// --- login logs --------------------------------------------------------------------------

export interface LoginLogEntry {
  userId: number | null;
  login: string;
  loginMethod: LoginLogsTable["login_method"];
  ipAddress: string;
  userAgent: string | null;
  successful: boolean;
  failureReason: string | null;
  at: Date;
}

export async function insertLoginLog(db: Db, e: LoginLogEntry): Promise<void> {
  await db
    .insertInto("login_logs")
    .values({
      user_id: e.userId,
      login: e.login,
      login_method: e.loginMethod,
      ip_address: e.ipAddress,
      user_agent: e.userAgent,
      successful: e.successful,
      failure_reason: e.failureReason,
      created_at: e.at,
    })
    .execute();
}

/**
 * Whether this account signed in successfully from this address since `since`. A null user
 * (an unknown account name) still makes the round trip and finds nothing, so both cost alike.
 */
export async function hasSignedInFrom(db: Db, userId: number | null, ipAddress: string, since: Date): Promise<boolean> {
  const row = await db
    .selectFrom("login_logs")
    .select("id")
    // Not "user_id is null": a deleted account's successes keep their rows with a null user.
    .where((eb) => (userId === null ? sql<boolean>`false` : eb("user_id", "=", userId)))
    .where("successful", "=", true)
    .where("ip_address", "=", ipAddress)
    .where("created_at", ">", since)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

// --- refresh tokens ----------------------------------------------------------------------

export async function insertRefreshToken(
  db: Db,
  t: { userId: number; familyId: string; tokenHash: string; createdAt: Date; expiresAt: Date },
): Promise<number> {
  const row = await db
    .insertInto("refresh_tokens")
    .values({
      user_id: t.userId,
      family_id: t.familyId,
      token_hash: t.tokenHash,
      created_at: t.createdAt,
      expires_at: t.expiresAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findRefreshToken(db: Db, tokenHash: string) {
  return db.selectFrom("refresh_tokens").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst();
}

/**
 * Retires a live token; false when it was already retired (another tab's rotation, or a replay).
 * Concurrent callers queue on the row, so exactly one of them gets true.
 */
export async function retireRefreshToken(db: Db, id: number, at: Date): Promise<boolean> {
  const rows = await db
    .updateTable("refresh_tokens")
    .set({ revoked_at: at })
    .where("id", "=", id)
    .where("revoked_at", "is", null)
    .returning("id")
    .execute();
  return rows.length === 1;
}

export async function linkRefreshSuccessor(db: Db, id: number, replacedById: number): Promise<void> {
  await db.updateTable("refresh_tokens").set({ replaced_by_id: replacedById }).where("id", "=", id).execute();
}

/** Ends the sign-in the token belongs to: every live token of its family. */
export async function revokeRefreshFamilyByHash(db: Db, tokenHash: string, at: Date): Promise<void> {
  await db
    .updateTable("refresh_tokens")
    .set({ revoked_at: at })
    .where("family_id", "=", (eb) =>
      eb.selectFrom("refresh_tokens as rt").select("rt.family_id").where("rt.token_hash", "=", tokenHash),
    )
    .where("revoked_at", "is", null)
    .execute();
}

export async function revokeAllRefreshTokens(db: Db, userId: number, at: Date): Promise<void> {
  await db
    .updateTable("refresh_tokens")
    .set({ revoked_at: at })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .execute();
}

// --- one-time tokens (password reset, e-mail verification) --------------------------------

export async function insertOneTimeToken(
  db: Db,
  t: { userId: number; purpose: OneTimeTokenPurpose; tokenHash: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto("one_time_tokens")
    .values({
      user_id: t.userId,
      purpose: t.purpose,
      token_hash: t.tokenHash,
      created_at: t.createdAt,
      expires_at: t.expiresAt,
    })
    .execute();
}

/** The token with its owner's active flag, or undefined. */
export function findOneTimeToken(db: Db, tokenHash: string, purpose: OneTimeTokenPurpose) {
  return db
    .selectFrom("one_time_tokens as t")
    .innerJoin("users as u", "u.id", "t.user_id")
    .select(["t.id", "t.user_id", "t.expires_at", "t.used_at", "u.is_active"])
    .where("t.token_hash", "=", tokenHash)
    .where("t.purpose", "=", purpose)
    .executeTakeFirst();
}

/** Marks the token used if it still was usable at `at`; false if someone else got there first. */
export async function consumeOneTimeToken(db: Db, id: number, at: Date): Promise<boolean> {
  const rows = await db
    .updateTable("one_time_tokens")
    .set({ used_at: at })
    .where("id", "=", id)
    .where("used_at", "is", null)
    .where("expires_at", ">", at)
    .returning("id")
    .execute();
  return rows.length === 1;
}

/** Retires every other open link of this kind (a password change makes older reset mails void). */
export async function retireOneTimeTokens(
  db: Db,
  userId: number,
  purpose: OneTimeTokenPurpose,
  at: Date,
): Promise<void> {
  await db
    .updateTable("one_time_tokens")
    .set({ used_at: at })
    .where("user_id", "=", userId)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .execute();
}

export async function countOneTimeTokensSince(
  db: Db,
  userId: number,
  purpose: OneTimeTokenPurpose,
  since: Date,
): Promise<number> {
  const row = await db
    .selectFrom("one_time_tokens")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .where("purpose", "=", purpose)
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
