import { type AuditAction, FEATURE_DEFAULTS, type FeatureSettings } from "@tally/contract";
import { z } from "zod";
import type { DbExecutor } from "../../db/executor.js";
import { recordChange } from "../audit/audit.service.js";
import { DEMO_SETTING_KEY } from "../scope/scope-settings.service.js";
import * as repo from "./settings.repository.js";

/** The keys of the settings table (the demo setting's is scope's, which reads it on every request). */
export const SETTING_KEYS = { features: "features", demo: DEMO_SETTING_KEY, privacy: "privacy" } as const;

// Lenient: a malformed or partial stored value falls back to the defaults rather than failing.
const storedToggles = z.object({ enableExport: z.boolean().optional(), enableStudentEditing: z.boolean().optional() });
const storedFeatures = z.object({
  enableExport: z.boolean().catch(FEATURE_DEFAULTS.enableExport).default(FEATURE_DEFAULTS.enableExport),
  enableStudentEditing: z.boolean().catch(FEATURE_DEFAULTS.enableStudentEditing).default(FEATURE_DEFAULTS.enableStudentEditing),
  applyToAllSchools: z.boolean().catch(FEATURE_DEFAULTS.applyToAllSchools).default(FEATURE_DEFAULTS.applyToAllSchools),
  schoolSettings: z.record(z.string(), storedToggles.catch({})).catch({}).default({}),
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
 * Replaces one setting in the caller's transaction. Its row is locked while read (made with
 * `parse`'s defaults on the very first save, so that two first saves queue too), so saves of
 * it apply one after the other, each audit row's "before" being what the previous save left;
 * the audit row commits with the change. Returns the value saved.
 */
export async function replaceSetting<T>(
  trx: DbExecutor,
  key: (typeof SETTING_KEYS)[keyof typeof SETTING_KEYS],
  parse: (stored: unknown) => T,
  change: (before: T) => T,
  audit: { actorId: number; action: AuditAction; at: Date },
): Promise<T> {
  const { actorId, action, at } = audit;
  await repo.insertSettingIfAbsent(trx, key, parse(undefined), at);
  const before = parse(await repo.readSettingForUpdate(trx, key));
  const after = change(before);
  await repo.writeSetting(trx, key, after, actorId, at);
  await recordChange(trx, { actorId, action, entity: "settings", entityId: key, before, after, at });
  return after;
}
