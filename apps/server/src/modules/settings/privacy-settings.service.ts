import { PRIVACY_DEFAULTS, type PrivacySettings, privacySettingsSchema } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import * as repo from "./settings.repository.js";
import { replaceSetting, SETTING_KEYS } from "./settings.service.js";

/** The 'privacy' setting, defaults filled in; a malformed stored value falls back to the defaults. */
export function parsePrivacySettings(value: unknown): PrivacySettings {
  const parsed = privacySettingsSchema.partial().safeParse(value ?? {});
  return { ...PRIVACY_DEFAULTS, ...(parsed.success ? parsed.data : {}) };
}

export async function readPrivacySettings(db: DbExecutor): Promise<PrivacySettings> {
  return parsePrivacySettings(await repo.readSetting(db, SETTING_KEYS.privacy));
}

/** PUT /settings/privacy: replaces the whole setting, audited with before and after. */
export function savePrivacySettings(db: DbExecutor, actorId: number, value: PrivacySettings, at: Date): Promise<PrivacySettings> {
  return db.transaction().execute((trx) => replaceSetting(trx, SETTING_KEYS.privacy, parsePrivacySettings, () => value, { actorId, action: "update", at }));
}
