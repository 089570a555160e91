import {
  ACTIVE_COHORT_GRACE_DAYS,
  ACTIVE_COHORT_LEAD_DAYS,
  type AdminCohortItem,
  type CohortItem,
  type CreateCohortRequest,
  cohortWeekCount,
  type DashboardFilter,
  END_BEFORE_START_MESSAGE,
  type UpdateCohortRequest,
} from "@tally/contract";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import { badRequest, notFound } from "../../lib/errors.js";
import { recordChange } from "../audit/audit.service.js";
import { resolveScope, type ScopeSubject } from "../scope/scope.js";
import * as repo from "./cohorts.repository.js";

export async function listCohorts(db: DbExecutor, user: ScopeSubject, filter: DashboardFilter): Promise<CohortItem[]> {
  return repo.listCohorts(db, await resolveScope(db, user, filter));
}

const dayOffset = (now: Date, days: number) => new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Cohorts a week's reports can still be for: running today, starting within the next two
 * weeks, or ended within the last four (reports of a cohort's last week arrive after it ends).
 */
export async function listActiveCohorts(
  db: DbExecutor,
  user: ScopeSubject,
  filter: DashboardFilter,
  now: Date,
): Promise<CohortItem[]> {
  const active = { startsBy: dayOffset(now, ACTIVE_COHORT_LEAD_DAYS), endsFrom: dayOffset(now, -ACTIVE_COHORT_GRACE_DAYS) };
  return repo.listCohorts(db, await resolveScope(db, user, filter), { active });
}

function withWeeks(row: repo.AdminCohortRow): AdminCohortItem {
  return { ...row, week_count: cohortWeekCount(row.start_date, row.end_date) };
}

/**
 * The admin list: every cohort with its students and weeks, newest first. Like GET /cohorts
 * for admins, it leaves out the demo cohort (the demo settings manage that one).
 */
export async function listCohortsForAdmin(db: DbExecutor, user: ScopeSubject): Promise<AdminCohortItem[]> {
  const scope = await resolveScope(db, user);
  return (await repo.listCohortsWithCounts(db, { excludeIds: scope.excludedCohortIds })).map(withWeeks);
}

async function adminItem(db: DbExecutor, id: number): Promise<AdminCohortItem> {
  const [row] = await repo.listCohortsWithCounts(db, { ids: [id] });
  if (!row) throw notFound("Cohort not found");
  return withWeeks(row);
}

/** Adds a cohort (the contract checked every field, end after start included) and records it. */
export async function createCohort(ctx: ServerContext, actorId: number, body: CreateCohortRequest): Promise<AdminCohortItem> {
  const at = ctx.clock.now();
  return ctx.database.db.transaction().execute(async (trx) => {
    const cohort = await repo.insertCohort(trx, { ...body, at });
    await recordChange(trx, { actorId, action: "cohort.created", entity: "cohort", entityId: cohort.id, before: null, after: cohort, at });
    return adminItem(trx, cohort.id);
  });
}

/**
 * Edits a cohort. A date sent alone is checked against the stored other date, so the end
 * always stays after the start; an unchanged save writes nothing and records nothing.
 */
export async function updateCohort(
  ctx: ServerContext,
  actorId: number,
  id: number,
  body: UpdateCohortRequest,
): Promise<AdminCohortItem> {
  const at = ctx.clock.now();
  return ctx.database.db.transaction().execute(async (trx) => {
    const before = await repo.findCohortForUpdate(trx, id);
    if (!before) throw notFound("Cohort not found");
    const start = body.start_date ?? before.start_date;
    const end = body.end_date ?? before.end_date;
    if (end <= start) {
      const path = body.end_date !== undefined ? "body.end_date" : "body.start_date";
      const message = body.end_date !== undefined ? END_BEFORE_START_MESSAGE : "Start date must be before the end date";
      throw badRequest(message, [{ path, message }]);
    }
    const fields: Partial<repo.CohortFields> = {};
    for (const key of ["name", "program_type", "start_date", "end_date", "total_expected_hours"] as const) {
      const value = body[key];
      if (value !== undefined && value !== before[key]) Object.assign(fields, { [key]: value });
    }
    if (Object.keys(fields).length > 0) {
      const after = await repo.updateCohort(trx, id, fields);
      await recordChange(trx, { actorId, action: "cohort.updated", entity: "cohort", entityId: id, before, after, at });
    }
    return adminItem(trx, id);
  });
}

/** Which of these cohort ids exist (another module's check before it refers to cohorts). */
export function existingCohortIds(db: DbExecutor, ids: readonly number[]): Promise<number[]> {
  return repo.existingCohortIds(db, ids);
}
