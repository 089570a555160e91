import {
  type FeatureSettings,
  type FeatureSettingsResponse,
  isAdminRole,
  type SaveFeatureSettingsRequest,
  type SaveFeatureSettingsResponse,
  togglesAt,
} from "@tally/contract";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import { badRequest } from "../../lib/errors.js";
import { schoolsByIds } from "../schools/schools.service.js";
import type { SettingsReader } from "./settings.policy.js";
import { parseFeatureSettings, readFeatureSettings, replaceSetting, SETTING_KEYS } from "./settings.service.js";

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
 * POST /settings/features: replaces the whole setting in one transaction with one audit row;
 * concurrent saves apply one after the other (replaceSetting).
 */
export async function saveFeatureSettings(
  ctx: ServerContext,
  actorId: number,
  body: SaveFeatureSettingsRequest,
): Promise<SaveFeatureSettingsResponse> {
  const at = ctx.clock.now();
  return ctx.database.db.transaction().execute(async (trx) => {
    await requireKnownSchools(trx, Object.keys(body.schoolSettings).map(Number));
    const after: FeatureSettings = {
      enableExport: body.enableExport,
      enableStudentEditing: body.enableStudentEditing,
      applyToAllSchools: body.applyToAllSchools,
      schoolSettings: body.schoolSettings,
    };
    await replaceSetting(trx, SETTING_KEYS.features, parseFeatureSettings, () => after, { actorId, action: "settings.features.saved", at });
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
