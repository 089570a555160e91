import {
  DEMO_DEFAULTS,
  DEMO_TOGGLE_DEFAULTS,
  type DemoSettings,
  FEATURE_DEFAULTS,
  type FeatureSettings,
} from "@tally/contract";
import { z } from "zod";
import type { DbExecutor } from "../../db/executor.js";
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
