import {
  type LoginLogsQuery,
  type LoginLogsResponse,
  MESSAGES,
  type SchoolRef,
  type UpdateUserRequest,
  type UserListItem,
} from "@tally/contract";
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { ServerContext } from "../../context.js";
import type { Database, User, UserUpdate } from "../../db/schema.js";
import { refuseCommonPassword } from "../../lib/common-passwords.js";
import { badRequest, conflict, notFound } from "../../lib/errors.js";
import { hashPassword } from "../../lib/password-hash.js";
import { bumpSessionVersion, sendPasswordResetLink } from "../auth/auth.service.js";
import { type Actor, assertCanChange, assertCanManage } from "./users.policy.js";
import * as repo from "./users.repository.js";

const USER_NOT_FOUND = "User not found";
const USERNAME_TAKEN = "Username already exists";
const EMAIL_TAKEN = "Email already exists";
const DAY_MS = 24 * 60 * 60_000;

function toListItem(user: repo.UserWithSchool, assigned: SchoolRef[]): UserListItem {
  const schools =
    user.role === "district_user"
      ? assigned
      : user.role === "school_user" && user.school_id !== null
        ? [{ id: user.school_id, name: user.school_name ?? "" }]
        : [];
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    school_id: user.school_id,
    school_name: user.school_name,
    school_ids: schools.map((s) => s.id),
    school_names: schools.map((s) => s.name),
    school_count: schools.length,
    is_active: user.is_active,
    created_at: new Date(user.created_at).toISOString(),
    last_login: user.last_login ? new Date(user.last_login).toISOString() : null,
    email_verified: user.email_verified,
  };
}

async function listItems(db: Kysely<Database>, ids?: number[]): Promise<UserListItem[]> {
  const [users, assigned] = await Promise.all([repo.listUsers(db, ids), repo.assignedSchools(db, ids)]);
  const byUser = new Map<number, SchoolRef[]>();
  for (const row of assigned) {
    const list = byUser.get(row.user_id) ?? [];
    list.push({ id: row.id, name: row.name });
    byUser.set(row.user_id, list);
  }
  return users.map((u) => toListItem(u, byUser.get(u.id) ?? []));
}

/** GET /users: every account, active or not. */
export function listUsers(db: Kysely<Database>): Promise<UserListItem[]> {
  return listItems(db);
}

async function userItem(db: Kysely<Database>, id: number): Promise<UserListItem> {
  const [item] = await listItems(db, [id]);
  if (!item) throw notFound(USER_NOT_FOUND);
  return item;
}

async function loadTarget(db: Kysely<Database>, id: number): Promise<User> {
  const user = await repo.findUser(db, id);
  if (!user) throw notFound(USER_NOT_FOUND);
  return user;
}

async function assertSchoolsExist(db: Kysely<Database>, ids: number[]): Promise<SchoolRef[]> {
  const found = await repo.schoolsByIds(db, ids);
  if (found.length !== ids.length) {
    throw badRequest(ids.length === 1 ? "The selected school does not exist" : "One or more of the selected schools do not exist");
  }
  return found;
}

async function currentSchoolIds(db: Kysely<Database>, user: User): Promise<number[]> {
  if (user.role !== "district_user") return [];
  return (await repo.assignedSchools(db, [user.id])).map((s) => s.id);
}

const sameSet = (a: number[], b: number[]) => a.length === b.length && a.every((x) => b.includes(x));

function isUniqueViolation(err: unknown): err is { code: string; constraint?: string; message: string } {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "23505";
}

/** Two simultaneous edits to the same name: the unique index decides, and the loser gets a 409. */
async function withUniqueLogins<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw conflict(`${err.constraint ?? err.message}`.includes("email") ? EMAIL_TAKEN : USERNAME_TAKEN);
    }
    throw err;
  }
}

/**
 * What an account looks like after the edit: only a school user keeps a school_id and only
 * a district user keeps user_schools rows, so leaving either role clears them.
 */
async function resolveSchools(
  db: Kysely<Database>,
  target: User,
  input: UpdateUserRequest,
): Promise<{ schoolId: number | null; schoolIds: number[] }> {
  const role = input.role ?? target.role;
  if (role === "school_user") {
    const schoolId = input.school_id !== undefined ? input.school_id : target.role === "school_user" ? target.school_id : null;
    if (schoolId === null || schoolId === undefined) throw badRequest(MESSAGES.selectSchool);
    await assertSchoolsExist(db, [schoolId]);
    return { schoolId, schoolIds: [] };
  }
  // Other roles never gain a school_id here; a stale one is left alone unless the role changes.
  const schoolId = role === target.role ? target.school_id : null;
  if (role !== "district_user") return { schoolId, schoolIds: [] };
  const schoolIds = input.school_ids ? [...new Set(input.school_ids)] : await currentSchoolIds(db, target);
  if (schoolIds.length === 0) throw badRequest(MESSAGES.selectSchools);
  await assertSchoolsExist(db, schoolIds);
  return { schoolId, schoolIds };
}

/**
 * PUT /users/:id. Changing the role, schools or active state signs the user out everywhere;
 * a new username or e-mail alone does not. Reactivating also mails a password-reset link.
 */
export async function updateUser(
  ctx: ServerContext,
  actor: Actor,
  id: number,
  input: UpdateUserRequest,
  log: FastifyBaseLogger,
): Promise<UserListItem> {
  const db = ctx.database.db;
  const target = await loadTarget(db, id);
  assertCanChange(actor, target, { role: input.role, isActive: input.is_active });

  const { schoolId, schoolIds } = await resolveSchools(db, target, input);
  const taken = await repo.findLoginConflicts(db, id, { username: input.username, email: input.email });
  if (taken.usernameTaken) throw conflict(USERNAME_TAKEN);
  if (taken.emailTaken) throw conflict(EMAIL_TAKEN);

  const role = input.role ?? target.role;
  const isActive = input.is_active ?? target.is_active;
  const previousSchoolIds = await currentSchoolIds(db, target);
  const schoolsChanged = !sameSet(previousSchoolIds, schoolIds);
  const accessChanged =
    role !== target.role || schoolId !== target.school_id || schoolsChanged || isActive !== target.is_active;

  const now = ctx.clock.now();
  const values: UserUpdate = { role, school_id: schoolId, is_active: isActive, updated_at: now };
  if (input.username !== undefined) values.username = input.username;
  if (input.email !== undefined) values.email = input.email;
  await withUniqueLogins(() =>
    db.transaction().execute(async (trx) => {
      await repo.updateUser(trx, id, values);
      if (schoolsChanged) await repo.replaceUserSchools(trx, id, schoolIds);
      if (accessChanged) await bumpSessionVersion(trx, id, now);
    }),
  );
  if (!target.is_active && isActive) await sendPasswordResetLink(ctx, id, log);
  return userItem(db, id);
}

async function setActive(ctx: ServerContext, actor: Actor, id: number, isActive: boolean): Promise<User> {
  const db = ctx.database.db;
  const target = await loadTarget(db, id);
  assertCanChange(actor, target, { isActive });
  if (target.is_active !== isActive) {
    const now = ctx.clock.now();
    await db.transaction().execute(async (trx) => {
      await repo.updateUser(trx, id, { is_active: isActive, updated_at: now });
      await bumpSessionVersion(trx, id, now);
    });
  }
  return target;
}

/** DELETE /users/:id and POST /users/:id/deactivate. No data is deleted; the account just stops working. */
export async function deactivateUser(ctx: ServerContext, actor: Actor, id: number) {
  const target = await setActive(ctx, actor, id, false);
  return {
    message: `User ${target.username} has been deactivated successfully`,
    user: await userItem(ctx.database.db, id),
  };
}

/** POST /users/:id/reactivate: the account works again and its owner gets a reset link. */
export async function reactivateUser(ctx: ServerContext, actor: Actor, id: number, log: FastifyBaseLogger) {
  const target = await setActive(ctx, actor, id, true);
  await sendPasswordResetLink(ctx, id, log);
  return {
    message: `User ${target.username} has been reactivated successfully and a password reset has been sent`,
    user: await userItem(ctx.database.db, id),
  };
}

/** POST /users/:id/reset-password: sets the given password, or e-mails a reset link when none is given. */
export async function resetPassword(
  ctx: ServerContext,
  actor: Actor,
  id: number,
  password: string | null | undefined,
  log: FastifyBaseLogger,
): Promise<string> {
  const db = ctx.database.db;
  const target = await loadTarget(db, id);
  assertCanManage(actor, target);
  if (password === undefined || password === null) {
    // The link would be refused for a deactivated account; reactivation sends its own.
    if (!target.is_active) throw badRequest("This account is deactivated. Reactivate it to send a password reset.");
    await sendPasswordResetLink(ctx, id, log);
    return MESSAGES.passwordResetSent;
  }
  refuseCommonPassword(password);
  const passwordHash = await hashPassword(password);
  const now = ctx.clock.now();
  await db.transaction().execute(async (trx) => {
    await repo.updateUser(trx, id, { password_hash: passwordHash, updated_at: now });
    await bumpSessionVersion(trx, id, now);
  });
  return `Password for ${target.username} has been updated`;
}

/** PUT /users/:id/school: the one school of a school user. */
export async function setUserSchool(ctx: ServerContext, actor: Actor, id: number, schoolId: number) {
  const db = ctx.database.db;
  const target = await loadTarget(db, id);
  assertCanManage(actor, target);
  if (target.role !== "school_user") {
    throw badRequest("Only a school user has a single school; district users are given school access instead");
  }
  await assertSchoolsExist(db, [schoolId]);
  if (target.school_id !== schoolId) {
    const now = ctx.clock.now();
    await db.transaction().execute(async (trx) => {
      await repo.updateUser(trx, id, { school_id: schoolId, updated_at: now });
      await bumpSessionVersion(trx, id, now);
    });
  }
  return { message: MESSAGES.userUpdated, user: await userItem(db, id) };
}

/** GET /users/:id/schools: the schools the account is assigned (none for admins, who see all). */
export async function getUserSchools(db: Kysely<Database>, actor: Actor, id: number): Promise<SchoolRef[]> {
  const target = await loadTarget(db, id);
  assertCanManage(actor, target);
  const item = await userItem(db, id);
  return item.school_ids.map((schoolId, i) => ({ id: schoolId, name: item.school_names[i] ?? "" }));
}

/** PUT /users/:id/schools: replaces a district user's school access. */
export async function setUserSchools(ctx: ServerContext, actor: Actor, id: number, requested: number[]) {
  const db = ctx.database.db;
  const target = await loadTarget(db, id);
  assertCanManage(actor, target);
  if (target.role !== "district_user") {
    throw badRequest("School access lists are only for district users; a school user has a single school");
  }
  const schoolIds = [...new Set(requested)];
  if (schoolIds.length === 0) throw badRequest(MESSAGES.selectSchools);
  const schools = await assertSchoolsExist(db, schoolIds);
  if (!sameSet(await currentSchoolIds(db, target), schoolIds)) {
    const now = ctx.clock.now();
    await db.transaction().execute(async (trx) => {
      await repo.replaceUserSchools(trx, id, schoolIds);
      await repo.updateUser(trx, id, { updated_at: now });
      await bumpSessionVersion(trx, id, now);
    });
  }
  return { message: MESSAGES.schoolAccessUpdated, data: schools };
}

/** GET /users/:id/login-logs: newest first; the dates are whole UTC days, both included. */
export async function getLoginLogs(
  db: Kysely<Database>,
  actor: Actor,
  id: number,
  query: LoginLogsQuery,
): Promise<LoginLogsResponse> {
  const target = await loadTarget(db, id);
  assertCanManage(actor, target);
  const { rows, count } = await repo.findLoginLogs(
    db,
    {
      userId: id,
      successful: query.successful,
      from: query.start_date ? new Date(`${query.start_date}T00:00:00Z`) : undefined,
      until: query.end_date ? new Date(Date.parse(`${query.end_date}T00:00:00Z`) + DAY_MS) : undefined,
    },
    { limit: query.limit, offset: query.offset },
  );
  return { rows: rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })), count };
}
