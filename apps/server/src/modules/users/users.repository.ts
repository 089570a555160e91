import type { Kysely } from "kysely";
import type { Database, User, UserUpdate } from "../../db/schema.js";

type Db = Kysely<Database>;

export type UserWithSchool = User & { school_name: string | null };

export function findUser(db: Db, id: number): Promise<User | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Every account with the name of its own school (school users), by username. */
export function listUsers(db: Db, ids?: number[]): Promise<UserWithSchool[]> {
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

/** user_schools rows with school names, for the given users (all users when omitted). */
export function assignedSchools(
  db: Db,
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

export function schoolsByIds(db: Db, ids: number[]): Promise<Array<{ id: number; name: string }>> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom("schools").select(["id", "name"]).where("id", "in", ids).orderBy("name").orderBy("id").execute();
}

/** Other accounts already using this username or e-mail, ignoring case. */
export async function findLoginConflicts(
  db: Db,
  exceptUserId: number,
  login: { username?: string; email?: string },
): Promise<{ usernameTaken: boolean; emailTaken: boolean }> {
  const username = login.username?.toLowerCase();
  const email = login.email?.toLowerCase();
  if (username === undefined && email === undefined) return { usernameTaken: false, emailTaken: false };
  const rows = await db
    .selectFrom("users")
    .select(["username", "email"])
    .where("id", "!=", exceptUserId)
    .where((eb) => {
      const either = [];
      if (username !== undefined) either.push(eb(eb.fn("lower", ["username"]), "=", username));
      if (email !== undefined) either.push(eb(eb.fn("lower", ["email"]), "=", email));
      return eb.or(either);
    })
    .execute();
  return {
    usernameTaken: rows.some((r) => r.username.toLowerCase() === username),
    emailTaken: rows.some((r) => r.email.toLowerCase() === email),
  };
}

export async function updateUser(db: Db, id: number, values: UserUpdate): Promise<void> {
  await db.updateTable("users").set(values).where("id", "=", id).execute();
}

/** Makes the user's user_schools rows exactly `schoolIds`. */
export async function replaceUserSchools(db: Db, userId: number, schoolIds: number[]): Promise<void> {
  await db.deleteFrom("user_schools").where("user_id", "=", userId).execute();
  if (schoolIds.length === 0) return;
  await db
    .insertInto("user_schools")
    .values(schoolIds.map((school_id) => ({ user_id: userId, school_id })))
    .execute();
}

export interface LoginLogFilter {
  userId: number;
  successful?: boolean;
  /** Inclusive lower and exclusive upper bound on created_at. */
  from?: Date;
  until?: Date;
}

function filteredLoginLogs(db: Db, f: LoginLogFilter) {
  let query = db.selectFrom("login_logs").where("user_id", "=", f.userId);
  if (f.successful !== undefined) query = query.where("successful", "=", f.successful);
  if (f.from) query = query.where("created_at", ">=", f.from);
  if (f.until) query = query.where("created_at", "<", f.until);
  return query;
}

/** One page of a user's sign-in attempts, newest first, and how many match in all. */
export async function findLoginLogs(db: Db, f: LoginLogFilter, page: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    filteredLoginLogs(db, f)
      .select(["id", "created_at", "login_method", "ip_address", "user_agent", "successful", "failure_reason"])
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
