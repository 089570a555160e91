import {
  DEMO_DEFAULTS,
  DEMO_TOGGLE_DEFAULTS,
  type DemoSettings,
  FEATURE_DEFAULTS,
  type FeatureSettings,
  type FeatureSettingsResponse,
  type FeatureToggles,
  isAdminRole,
  type SaveFeatureSettingsRequest,
  type SaveFeatureSettingsResponse,
} from "@tally/contract";
import { z } from "zod";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import { badRequest } from "../../lib/errors.js";
import { recordChange } from "../audit/audit.service.js";
import { schoolsByIds } from "../schools/schools.service.js";
import type { SettingsReader } from "./settings.policy.js";
import * as repo from "./settings.repository.js";

export type { VisibilityRow } from "./settings.repository.js";

/** The keys of the settings table. */
export const SETTING_KEYS = { features: "features", demo: "demo" } as const;

// Lenient: a malformed or partial stored value falls back to the defaults rather than failing.
const storedToggles = z.object({ enableExport: z.boolean().optional(), enableStudentEditing: z.boolean().optional() });
const storedFeatures = z.object({
  enableExport: z.boolean().catch(FEATURE_DEFAULTS.enableExport).default(FEATURE_DEFAULTS.enableExport),
  enableStudentEditing: z.boolean().catch(FEATURE_DEFAULTS.enableStudentEditing).default(FEATURE_DEFAULTS.enableStudentEditing),
  applyToAllSchools: z.boolean().catch(FEATURE_DEFAULTS.applyToAllSchools).default(FEATURE_DEFAULTS.applyToAllSchools),
  schoolSettings: z.record(z.string(), storedToggles.catch({})).catch({}).default({}),
});
const storedDemo = z.object({
  schoolId: z.number().int().catch(DEMO_DEFAULTS.schoolId).default(DEMO_DEFAULTS.schoolId),
  cohortId: z.number().int().catch(DEMO_DEFAULTS.cohortId).default(DEMO_DEFAULTS.cohortId),
  isDemoVisible: z.boolean().catch(DEMO_TOGGLE_DEFAULTS.isDemoVisible).default(DEMO_TOGGLE_DEFAULTS.isDemoVisible),
  adminAccess: z.boolean().catch(DEMO_TOGGLE_DEFAULTS.adminAccess).default(DEMO_TOGGLE_DEFAULTS.adminAccess),
  schoolAccess: z.boolean().catch(DEMO_TOGGLE_DEFAULTS.schoolAccess).default(DEMO_TOGGLE_DEFAULTS.schoolAccess),
});

/** The 'features' setting with defaults filled in (absent = every feature on). */
export function parseFeatureSettings(value: unknown): FeatureSettings {
  const parsed = storedFeatures.safeParse(value ?? {});
  return parsed.success ? parsed.data : { ...FEATURE_DEFAULTS };
}

/**
 * The toggles in force at one school: the global values when applyToAllSchools is on (or no
 * school is named), else the school's own, each falling back to the global value.
 */
export function togglesAt(features: FeatureSettings, schoolId: number | null): FeatureToggles {
  const global = { enableExport: features.enableExport, enableStudentEditing: features.enableStudentEditing };
  if (features.applyToAllSchools || schoolId === null) return global;
  const own = features.schoolSettings[String(schoolId)] ?? {};
  return {
    enableExport: own.enableExport ?? global.enableExport,
    enableStudentEditing: own.enableStudentEditing ?? global.enableStudentEditing,
  };
}

export async function readFeatureSettings(db: DbExecutor): Promise<FeatureSettings> {
  return parseFeatureSettings(await repo.readSetting(db, SETTING_KEYS.features));
}

/**
 * The 'demo' setting with defaults filled in: which school and cohort are the demo and the
 * three toggles. A malformed stored value falls back field by field, never fails a request.
 */
export function parseDemoSettings(value: unknown): DemoSettings {
  const parsed = storedDemo.safeParse(value ?? {});
  return parsed.success ? parsed.data : { ...DEMO_DEFAULTS, ...DEMO_TOGGLE_DEFAULTS };
}

/** For callers that did not read the demo setting with the account (see scope's loadCaller). */
export async function readDemoSettings(db: DbExecutor): Promise<DemoSettings> {
  return parseDemoSettings(await repo.readSetting(db, SETTING_KEYS.demo));
}

/** Every cohort visibility setting, for scope resolution. */
export function listCohortVisibility(db: DbExecutor): Promise<repo.VisibilityRow[]> {
  return repo.listCohortVisibility(db);
}

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
