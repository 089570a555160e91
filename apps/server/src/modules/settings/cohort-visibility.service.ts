import { type CohortVisibilitySetting, VISIBILITY_MESSAGES, type SaveCohortVisibilityResponse } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import type { Clock } from "../../lib/clock.js";
import { badRequest } from "../../lib/errors.js";
import { recordChange } from "../audit/audit.service.js";
import { existingCohortIds } from "../cohorts/cohorts.service.js";
import { schoolsByIds } from "../schools/schools.service.js";
import { listCohortVisibility } from "../scope/scope-settings.service.js";
import * as repo from "./settings.repository.js";

const byKey = (a: CohortVisibilitySetting, b: CohortVisibilitySetting) =>
  a.cohort_id - b.cohort_id || (a.school_id ?? 0) - (b.school_id ?? 0);

const keyOf = (row: Pick<CohortVisibilitySetting, "cohort_id" | "school_id">) => `${row.cohort_id}:${row.school_id ?? "all"}`;

/**
 * GET /settings/cohort-visibility: every stored row, or with a school the rows that apply
 * there (its own and the all-schools rows). A cohort with no row that applies is visible.
 */
export async function getCohortVisibility(db: DbExecutor, schoolId: number | undefined): Promise<CohortVisibilitySetting[]> {
  const rows = schoolId === undefined ? await listCohortVisibility(db) : await repo.listCohortVisibilityAt(db, schoolId);
  return rows.toSorted(byKey);
}

/**
 * POST /settings/cohort-visibility: writes the named rows in one transaction (all or nothing)
 * and records one audit row with the rows that changed, before and after. Rows not named stay.
 */
export async function saveCohortVisibility(
  db: DbExecutor,
  clock: Clock,
  actorId: number,
  settings: readonly CohortVisibilitySetting[],
): Promise<SaveCohortVisibilityResponse> {
  refuseDuplicates(settings);
  const at = clock.now();
  const data = await db.transaction().execute(async (trx) => {
    await repo.lockCohortVisibility(trx);
    await refuseUnknown(trx, settings);
    const stored = new Map((await listCohortVisibility(trx)).map((r) => [keyOf(r), r]));
    // Only rows whose value changes are written and audited: saving the screen unchanged is a no-op.
    const changed = settings.filter((s) => stored.get(keyOf(s))?.is_visible !== s.is_visible);
    await repo.upsertCohortVisibility(trx, changed, at);
    await recordChange(trx, {
      actorId,
      action: "update",
      entity: "cohort_visibility",
      entityId: null,
      before: changed.map((s) => ({ cohort_id: s.cohort_id, school_id: s.school_id, is_visible: stored.get(keyOf(s))?.is_visible ?? null })),
      after: changed.map((s) => ({ cohort_id: s.cohort_id, school_id: s.school_id, is_visible: s.is_visible })),
      at,
    });
    return listCohortVisibility(trx);
  });
  return { message: VISIBILITY_MESSAGES.saved, data: data.toSorted(byKey) };
}

/** A batch naming one (cohort, school) twice is ambiguous: refuse it rather than pick one. */
function refuseDuplicates(settings: readonly CohortVisibilitySetting[]): void {
  const seen = new Map<string, number>();
  settings.forEach((s, i) => {
    const first = seen.get(keyOf(s));
    if (first !== undefined) {
      const where = s.school_id === null ? "all schools" : `school ${s.school_id}`;
      const message = `settings[${i}] repeats settings[${first}]: cohort ${s.cohort_id} for ${where} is named twice.`;
      throw badRequest(message, [{ path: `body.settings.${i}`, message }]);
    }
    seen.set(keyOf(s), i);
  });
}

async function refuseUnknown(trx: DbExecutor, settings: readonly CohortVisibilitySetting[]): Promise<void> {
  const cohortIds = [...new Set(settings.map((s) => s.cohort_id))];
  const schoolIds = [...new Set(settings.flatMap((s) => (s.school_id === null ? [] : [s.school_id])))];
  const details: Array<{ path: string; message: string }> = [];
  const foundCohorts = new Set(await existingCohortIds(trx, cohortIds));
  const foundSchools = new Set((await schoolsByIds(trx, schoolIds)).map((s) => s.id));
  const missingCohorts = new Set(cohortIds.filter((id) => !foundCohorts.has(id)));
  const missingSchools = new Set(schoolIds.filter((id) => !foundSchools.has(id)));
  settings.forEach((s, i) => {
    if (missingCohorts.has(s.cohort_id)) details.push({ path: `body.settings.${i}.cohort_id`, message: `Unknown cohort id ${s.cohort_id}.` });
    if (s.school_id !== null && missingSchools.has(s.school_id)) {
      details.push({ path: `body.settings.${i}.school_id`, message: `Unknown school id ${s.school_id}.` });
    }
  });
  if (details.length === 0) return;
  const names = [
    ...(missingCohorts.size ? [`cohort id${missingCohorts.size > 1 ? "s" : ""} ${[...missingCohorts].join(", ")}`] : []),
    ...(missingSchools.size ? [`school id${missingSchools.size > 1 ? "s" : ""} ${[...missingSchools].join(", ")}`] : []),
  ];
  throw badRequest(`Nothing was saved: unknown ${names.join(" and ")}.`, details);
}
