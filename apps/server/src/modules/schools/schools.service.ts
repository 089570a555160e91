import {
  type AdminSchoolItem,
  type CreateSchoolRequest,
  duplicateSchoolNameMessage,
  type SchoolItem,
  type SchoolRef,
  type UpdateSchoolRequest,
} from "@tally/contract";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import { conflict, notFound } from "../../lib/errors.js";
import { recordChange } from "../audit/audit.service.js";
import { resolveScope, type ScopeSubject } from "../scope/scope.js";
import * as repo from "./schools.repository.js";

/** The schools the caller may see (admins: every school but the demo school). */
export async function listSchools(db: DbExecutor, user: ScopeSubject): Promise<SchoolItem[]> {
  return repo.listSchools(db, await resolveScope(db, user));
}

/** The schools among `ids` that exist, by name (no scope: for checking ids an administrator chose). */
export function schoolsByIds(db: DbExecutor, ids: readonly number[]): Promise<SchoolRef[]> {
  return repo.schoolsByIds(db, ids);
}

export async function schoolExists(db: DbExecutor, id: number): Promise<boolean> {
  return (await repo.schoolsByIds(db, [id])).length === 1;
}

/**
 * The admin list with student counts. Like GET /schools for admins, it leaves out the demo
 * school (spec: never in admin filters or counts); the demo settings manage that one.
 */
export async function listSchoolsForAdmin(db: DbExecutor, user: ScopeSubject): Promise<AdminSchoolItem[]> {
  const scope = await resolveScope(db, user);
  return repo.listSchoolsWithCounts(db, { excludeIds: scope.excludedSchoolIds });
}

const UNIQUE_VIOLATION = "23505";

/** Two simultaneous saves of one name: the unique index on lower(name) decides; the loser gets the same 409. */
async function withNameConflict<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if ((err as { code?: string }).code === UNIQUE_VIOLATION) throw conflict(duplicateSchoolNameMessage(name));
    throw err;
  }
}

async function adminItem(db: DbExecutor, id: number): Promise<AdminSchoolItem> {
  const [row] = await repo.listSchoolsWithCounts(db, { ids: [id] });
  if (!row) throw notFound("School not found");
  return row;
}

/** Adds a school (name trimmed by the contract, unique ignoring case) and records it. */
export async function createSchool(ctx: ServerContext, actorId: number, body: CreateSchoolRequest): Promise<AdminSchoolItem> {
  const at = ctx.clock.now();
  return withNameConflict(body.name, () =>
    ctx.database.db.transaction().execute(async (trx) => {
      if (await repo.findSchoolByName(trx, body.name)) throw conflict(duplicateSchoolNameMessage(body.name));
      const school = await repo.insertSchool(trx, { name: body.name, district: body.district ?? "", at });
      await recordChange(trx, { actorId, action: "school.created", entity: "school", entityId: school.id, before: null, after: school, at });
      return adminItem(trx, school.id);
    }),
  );
}

/** Renames a school or changes its district; an unchanged save writes nothing and records nothing. */
export async function updateSchool(
  ctx: ServerContext,
  actorId: number,
  id: number,
  body: UpdateSchoolRequest,
): Promise<AdminSchoolItem> {
  const at = ctx.clock.now();
  const name = body.name;
  return withNameConflict(name ?? "", () =>
    ctx.database.db.transaction().execute(async (trx) => {
      const before = await repo.findSchoolForUpdate(trx, id);
      if (!before) throw notFound("School not found");
      if (name !== undefined && (await repo.findSchoolByName(trx, name, id))) throw conflict(duplicateSchoolNameMessage(name));
      const fields: { name?: string; district?: string } = {};
      if (name !== undefined && name !== before.name) fields.name = name;
      if (body.district !== undefined && body.district !== before.district) fields.district = body.district;
      if (Object.keys(fields).length > 0) {
        const after = await repo.updateSchool(trx, id, fields);
        await recordChange(trx, { actorId, action: "school.updated", entity: "school", entityId: id, before, after, at });
      }
      return adminItem(trx, id);
    }),
  );
}
