import {
  type LoginLogsQuery,
  type LoginLogsResponse,
  MESSAGES,
  type SchoolRef,
  type UpdateUserRequest,
  type UserListItem,
} from "@tally/contract";
import type { FastifyBaseLogger } from "fastify";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import type { User, UserUpdate } from "../../db/schema.js";
import { badRequest, notFound } from "../../lib/errors.js";
import { recordChange } from "../audit/audit.service.js";
import { schoolsByIds } from "../schools/schools.service.js";
import { assertLoginsFree, requireAccount, signOutEverywhere, withUniqueLogins } from "./accounts.service.js";
import { sendPasswordResetLink } from "./password-resets.service.js";
import { type Actor, assertCanChange, assertCanManage } from "./users.policy.js";
import * as repo from "./users.repository.js";

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

async function listItems(db: DbExecutor, ids?: number[]): Promise<UserListItem[]> {
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
export function listUsers(db: DbExecutor): Promise<UserListItem[]> {
  return listItems(db);
}

async function userItem(db: DbExecutor, id: number): Promise<UserListItem> {
  const [item] = await listItems(db, [id]);
  if (!item) throw notFound("User not found");
  return item;
}

async function assertSchoolsExist(db: DbExecutor, ids: number[]): Promise<SchoolRef[]> {
  const found = await schoolsByIds(db, ids);
  if (found.length !== ids.length) {
    throw badRequest(ids.length === 1 ? "The selected school does not exist" : "One or more of the selected schools do not exist");
  }
  return found;
}

async function currentSchoolIds(db: DbExecutor, user: User): Promise<number[]> {
  if (user.role !== "district_user") return [];
  return (await repo.assignedSchools(db, [user.id])).map((s) => s.id);
}

/** What the audit log keeps of an account: never its password hash or session version. */
export async function accountAuditView(db: DbExecutor, id: number) {
  const item = await userItem(db, id);
  return { username: item.username, email: item.email, role: item.role, school_id: item.school_id, school_ids: item.school_ids, is_active: item.is_active };
}

const sameSet = (a: number[], b: number[]) => a.length === b.length && a.every((x) => b.includes(x));

/**
 * What an account looks like after the edit: only a school user keeps a school_id and only
 * a district user keeps user_schools rows, so leaving either role clears them.
 */
async function resolveSchools(
  db: DbExecutor,
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
  const target = await requireAccount(db, id);
  assertCanChange(actor, target, { role: input.role, isActive: input.is_active });

  const { schoolId, schoolIds } = await resolveSchools(db, target, input);
  await assertLoginsFree(db, { username: input.username, email: input.email }, id);

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
  const before = await accountAuditView(db, id);
  await withUniqueLogins(() =>
    db.transaction().execute(async (trx) => {
      await repo.updateUser(trx, id, values);
      if (schoolsChanged) await repo.replaceUserSchools(trx, id, schoolIds);
      if (accessChanged) await signOutEverywhere(trx, id, isActive ? "ACCOUNT_CHANGED" : "ACCOUNT_DEACTIVATED", now);
      const after = await accountAuditView(trx, id);
      await recordChange(trx, { actorId: actor.id, action: "user.updated", entity: "user", entityId: id, before, after, at: now });
    }),
  );
  if (!target.is_active && isActive) await sendPasswordResetLink(ctx, id, log);
  return userItem(db, id);
}

async function setActive(ctx: ServerContext, actor: Actor, id: number, isActive: boolean): Promise<User> {
  const db = ctx.database.db;
  const target = await requireAccount(db, id);
  assertCanChange(actor, target, { isActive });
  if (target.is_active !== isActive) {
    const now = ctx.clock.now();
    const action = isActive ? "user.reactivated" : "user.deactivated";
    await db.transaction().execute(async (trx) => {
      await repo.updateUser(trx, id, { is_active: isActive, updated_at: now });
      await signOutEverywhere(trx, id, isActive ? "ACCOUNT_CHANGED" : "ACCOUNT_DEACTIVATED", now);
      const [before, after] = [{ is_active: !isActive }, { is_active: isActive }];
      await recordChange(trx, { actorId: actor.id, action, entity: "user", entityId: id, before, after, at: now });
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

/** PUT /users/:id/school: the one school of a school user. */
export async function setUserSchool(ctx: ServerContext, actor: Actor, id: number, schoolId: number) {
  const db = ctx.database.db;
  const target = await requireAccount(db, id);
  assertCanManage(actor, target);
  if (target.role !== "school_user") {
    throw badRequest("Only a school user has a single school; district users are given school access instead");
  }
  await assertSchoolsExist(db, [schoolId]);
  if (target.school_id !== schoolId) {
    const now = ctx.clock.now();
    await db.transaction().execute(async (trx) => {
      await repo.updateUser(trx, id, { school_id: schoolId, updated_at: now });
      await signOutEverywhere(trx, id, "ACCOUNT_CHANGED", now);
      const [before, after] = [{ school_id: target.school_id }, { school_id: schoolId }];
      await recordChange(trx, { actorId: actor.id, action: "user.school.changed", entity: "user", entityId: id, before, after, at: now });
    });
  }
  return { message: MESSAGES.userUpdated, user: await userItem(db, id) };
}

/** GET /users/:id/schools: the schools the account is assigned (none for admins, who see all). */
export async function getUserSchools(db: DbExecutor, actor: Actor, id: number): Promise<SchoolRef[]> {
  const target = await requireAccount(db, id);
  assertCanManage(actor, target);
  const item = await userItem(db, id);
  return item.school_ids.map((schoolId, i) => ({ id: schoolId, name: item.school_names[i] ?? "" }));
}

/** PUT /users/:id/schools: replaces a district user's school access. */
export async function setUserSchools(ctx: ServerContext, actor: Actor, id: number, requested: number[]) {
  const db = ctx.database.db;
  const target = await requireAccount(db, id);
  assertCanManage(actor, target);
  if (target.role !== "district_user") {
    throw badRequest("School access lists are only for district users; a school user has a single school");
  }
  const schoolIds = [...new Set(requested)];
  if (schoolIds.length === 0) throw badRequest(MESSAGES.selectSchools);
  const schools = await assertSchoolsExist(db, schoolIds);
  const previous = await currentSchoolIds(db, target);
  if (!sameSet(previous, schoolIds)) {
    const now = ctx.clock.now();
    await db.transaction().execute(async (trx) => {
      await repo.replaceUserSchools(trx, id, schoolIds);
      await repo.updateUser(trx, id, { updated_at: now });
      await signOutEverywhere(trx, id, "ACCOUNT_CHANGED", now);
      const [before, after] = [{ school_ids: previous }, { school_ids: [...schoolIds].sort((a, b) => a - b) }];
      await recordChange(trx, { actorId: actor.id, action: "user.school_access.changed", entity: "user", entityId: id, before, after, at: now });
    });
  }
  return { message: MESSAGES.schoolAccessUpdated, data: schools };
}

/** GET /users/:id/login-logs: newest first; the dates are whole UTC days, both included. */
export async function getLoginLogs(
  db: DbExecutor,
  actor: Actor,
  id: number,
  query: LoginLogsQuery,
): Promise<LoginLogsResponse> {
  const target = await requireAccount(db, id);
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
