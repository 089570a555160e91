import {
  FEATURE_DEFAULTS,
  type FeatureSettings,
  type FeatureSettingsResponse,
  isAdminRole,
  type SaveFeatureSettingsRequest,
  type SaveFeatureSettingsResponse,
} from "@tally/contract";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import { badRequest } from "../../lib/errors.js";
import { recordChange } from "../audit/audit.service.js";
import { schoolsByIds } from "../schools/schools.service.js";
import type { SettingsReader } from "./settings.policy.js";
import * as repo from "./settings.repository.js";
import { parseFeatureSettings, readFeatureSettings, SETTING_KEYS, togglesAt } from "./settings.service.js";

// The admin screen's feature settings. Kept apart from settings.service, which students and
// reports read for the toggles, so that reading the toggles never depends on the schools module.

/**
 * GET /settings/features: the settings and the toggles in force at `schoolId` (already
 * checked by the policy). School and district users see only their own schools' rows.
 */
export async function getFeatureSettings(
  db: DbExecutor,
  caller: SettingsReader,
  schoolId: number | null,
): Promise<FeatureSettingsResponse> {
  const features = await readFeatureSettings(db);
  const data = isAdminRole(caller.role) ? features : { ...features, schoolSettings: ownSchoolRows(features, caller.accessibleSchoolIds) };
  return { data, effective: { ...togglesAt(features, schoolId), school_id: schoolId } };
}

function ownSchoolRows(features: FeatureSettings, schoolIds: readonly number[] | "all"): FeatureSettings["schoolSettings"] {
  if (schoolIds === "all") return features.schoolSettings;
  return Object.fromEntries(Object.entries(features.schoolSettings).filter(([id]) => schoolIds.includes(Number(id))));
}

/**
 * POST /settings/features: replaces the whole setting in one transaction with one audit row.
 * The stored row is locked first, so concurrent saves apply one after the other and each audit
 * row's "before" is what the previous save left.
 */
export async function saveFeatureSettings(
  ctx: ServerContext,
  actorId: number,
  body: SaveFeatureSettingsRequest,
): Promise<SaveFeatureSettingsResponse> {
  const at = ctx.clock.now();
  return ctx.database.db.transaction().execute(async (trx) => {
    await requireKnownSchools(trx, Object.keys(body.schoolSettings).map(Number));
    await repo.insertSettingIfAbsent(trx, SETTING_KEYS.features, FEATURE_DEFAULTS, at);
    const before = parseFeatureSettings(await repo.readSettingForUpdate(trx, SETTING_KEYS.features));
    const after: FeatureSettings = {
      enableExport: body.enableExport,
      enableStudentEditing: body.enableStudentEditing,
      applyToAllSchools: body.applyToAllSchools,
      schoolSettings: body.schoolSettings,
    };
    await repo.writeSetting(trx, SETTING_KEYS.features, after, actorId, at);
    await recordChange(trx, { actorId, action: "settings.features.saved", entity: "settings", entityId: SETTING_KEYS.features, before, after, at });
    return { data: after };
  });
}

/** A 400 naming the first schoolSettings key that is no school, before anything is written. */
async function requireKnownSchools(db: DbExecutor, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const known = new Set((await schoolsByIds(db, ids)).map((s) => s.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown === undefined) return;
  const message = `School ${unknown} not found`;
  throw badRequest(message, [{ path: `body.schoolSettings.${unknown}`, message }]);
}
