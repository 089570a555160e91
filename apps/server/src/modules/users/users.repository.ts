import { sql } from "kysely";
import { asciiLowerCase, type LoginFailureReason } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import type { LoginLogsTable, NewUser, User, UserUpdate } from "../../db/schema.js";

// --- accounts ----------------------------------------------------------------------------

export type UserWithSchool = User & { school_name: string | null };

export function findUserById(db: DbExecutor, id: number): Promise<User | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Accounts whose username or e-mail equals `login` ignoring case (at most one of each). */
export function findUsersByLogin(db: DbExecutor, login: string): Promise<User[]> {
  return db
    .selectFrom("users")
    .selectAll()
    .where((eb) =>
      eb.or([eb(eb.fn("lower", ["username"]), "=", login), eb(eb.fn("lower", ["email"]), "=", login)]),
    )
    .limit(2)
    .execute();
}

/**
 * The account whose address equals `email` after lower-casing both
 * A-Z only: lower() narrows to the index's row, translate() keeps the database's Unicode case
 * mapping (U+212A KELVIN SIGN to "k") from matching another address.
 */
export function findUserByEmail(db: DbExecutor, email: string): Promise<User | undefined> {
  const folded = asciiLowerCase(email);
  return db
    .selectFrom("users")
    .selectAll()
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", eb.fn("lower", [eb.val(folded)])))
    .where(sql<string>`translate(email, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`, "=", folded)
    .executeTakeFirst();
}

/** Links the account to a provider's subject, unless it is linked already; whether this call linked it. */
export async function linkOidcSubject(db: DbExecutor, userId: number, provider: string, subject: string): Promise<boolean> {
  const row = await db
    .updateTable("users")
    .set({ oidc_provider: provider, oidc_subject: subject })
    .where("id", "=", userId)
    .where("oidc_subject", "is", null)
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Every account with the name of its own school (school users), by username. The school
 * name is joined here, read-only: the list is one query however many accounts there are.
 */
export function listUsers(db: DbExecutor, ids?: number[]): Promise<UserWithSchool[]> {
  let query = db
    .selectFrom("users as u")
    .leftJoin("schools as s", "s.id", "u.school_id")
    .selectAll("u")
    .select("s.name as school_name");
  if (ids) {
    if (ids.length === 0) return Promise.resolve([]);
    query = query.where("u.id", "in", ids);
  }
  return query.orderBy((eb) => eb.fn("lower", ["u.username"])).orderBy("u.id").execute();
}

/** Accounts other than `exceptUserId` already using this username or e-mail, ignoring case. */
export async function findLoginConflicts(
  db: DbExecutor,
  login: { username?: string | undefined; email?: string | undefined },
  exceptUserId?: number,
): Promise<{ usernameTaken: boolean; emailTaken: boolean }> {
  const username = login.username?.toLowerCase();
  const email = login.email?.toLowerCase();
  if (username === undefined && email === undefined) return { usernameTaken: false, emailTaken: false };
  let query = db
    .selectFrom("users")
    .select(["username", "email"])
    .where((eb) => {
      const either = [];
      if (username !== undefined) either.push(eb(eb.fn("lower", ["username"]), "=", username));
      if (email !== undefined) either.push(eb(eb.fn("lower", ["email"]), "=", email));
      return eb.or(either);
    });
  if (exceptUserId !== undefined) query = query.where("id", "!=", exceptUserId);
  const rows = await query.execute();
  return {
    usernameTaken: rows.some((r) => r.username.toLowerCase() === username),
    emailTaken: rows.some((r) => r.email.toLowerCase() === email),
  };
}

export function insertUser(db: DbExecutor, values: NewUser): Promise<User> {
  return db.insertInto("users").values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateUser(db: DbExecutor, id: number, values: UserUpdate): Promise<void> {
  await db.updateTable("users").set(values).where("id", "=", id).execute();
}

/** Every access token issued before this stops working on its next request. */
export async function incrementSessionVersion(db: DbExecutor, userId: number, at: Date): Promise<void> {
  await db
    .updateTable("users")
    .set((eb) => ({ session_version: eb("session_version", "+", 1), updated_at: at }))
    .where("id", "=", userId)
    .execute();
}

/** A new password also proves the mailbox (the link came by e-mail) and ends other sessions. */
export async function replacePassword(db: DbExecutor, userId: number, passwordHash: string, at: Date): Promise<void> {
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

// --- school access (user_schools) --------------------------------------------------------

/**
 * user_schools rows with school names, for the given users (all users when omitted); the
 * names are joined here, read-only, for the same reason as in listUsers.
 */
export function assignedSchools(
  db: DbExecutor,
  userIds?: number[],
): Promise<Array<{ user_id: number; id: number; name: string }>> {
  let query = db
    .selectFrom("user_schools as us")
    .innerJoin("schools as s", "s.id", "us.school_id")
    .select(["us.user_id", "s.id", "s.name"]);
  if (userIds) {
    if (userIds.length === 0) return Promise.resolve([]);
    query = query.where("us.user_id", "in", userIds);
  }
  return query.orderBy("us.user_id").orderBy("s.name").orderBy("s.id").execute();
}

export async function assignedSchoolIds(db: DbExecutor, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom("user_schools")
    .select("school_id")
    .where("user_id", "=", userId)
    .orderBy("school_id")
    .execute();
  return rows.map((r) => r.school_id);
}

/** Makes the user's user_schools rows exactly `schoolIds`. */
export async function replaceUserSchools(db: DbExecutor, userId: number, schoolIds: number[]): Promise<void> {
  await db.deleteFrom("user_schools").where("user_id", "=", userId).execute();
  await insertUserSchools(db, userId, schoolIds);
}

export async function insertUserSchools(db: DbExecutor, userId: number, schoolIds: number[]): Promise<void> {
  if (schoolIds.length === 0) return;
  await db
    .insertInto("user_schools")
    .values(schoolIds.map((school_id) => ({ user_id: userId, school_id })))
    .execute();
}

// --- login logs --------------------------------------------------------------------------

export interface LoginLogEntry {
  userId: number | null;
  login: string;
  loginMethod: LoginLogsTable["login_method"];
  ipAddress: string;
  userAgent: string | null;
  successful: boolean;
  /** A contract code (LOGIN_FAILURE_REASONS), so the login history can show it in words. */
  failureReason: LoginFailureReason | null;
  at: Date;
  /** A single sign-on: its provider id, and whether the provider's `amr` showed two factors. */
  provider?: string | null;
  multiFactor?: boolean;
}

export async function insertLoginLog(db: DbExecutor, e: LoginLogEntry): Promise<void> {
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
      provider: e.provider ?? null,
      multi_factor: e.multiFactor ?? false,
    })
    .execute();
}

/**
 * Whether this account signed in successfully from this address since `since`. A null user
 * (an unknown account name) still makes the round trip and finds nothing, so both cost alike.
 */
export async function hasSignedInFrom(
  db: DbExecutor,
  userId: number | null,
  ipAddress: string,
  since: Date,
): Promise<boolean> {
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

export interface LoginLogFilter {
  userId: number;
  successful?: boolean | undefined;
  /** Inclusive lower and exclusive upper bound on created_at. */
  from?: Date | undefined;
  until?: Date | undefined;
}

function filteredLoginLogs(db: DbExecutor, f: LoginLogFilter) {
  let query = db.selectFrom("login_logs").where("user_id", "=", f.userId);
  if (f.successful !== undefined) query = query.where("successful", "=", f.successful);
  if (f.from) query = query.where("created_at", ">=", f.from);
  if (f.until) query = query.where("created_at", "<", f.until);
  return query;
}

/** One page of a user's sign-in attempts, newest first, and how many match in all. */
export async function findLoginLogs(db: DbExecutor, f: LoginLogFilter, page: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    filteredLoginLogs(db, f)
      .select(["id", "created_at", "login_method", "provider", "ip_address", "user_agent", "successful", "failure_reason"])
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    filteredLoginLogs(db, f)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}
