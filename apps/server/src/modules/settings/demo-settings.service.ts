import type { DemoSettingsResponse, SaveDemoSettingsRequest } from "@tally/contract";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { recordChange } from "../audit/audit.service.js";
import { parseDemoSettings, readDemoSettings } from "../scope/scope-settings.service.js";
import * as repo from "./settings.repository.js";
import { SETTING_KEYS } from "./settings.service.js";

/** GET /settings/demo: the stored setting with the defaults filled in. */
export async function getDemoSettings(db: Kysely<Database>): Promise<DemoSettingsResponse> {
  return { data: await readDemoSettings(db) };
}

/**
 * POST /settings/demo: replaces the three toggles, keeping which school and cohort are the demo
 * as stored. The row is locked while read, so two saves apply one after the other, and the
 * audit row commits with the change.
 */
export async function saveDemoSettings(
  db: Kysely<Database>,
  actorId: number,
  toggles: SaveDemoSettingsRequest,
  at: Date,
): Promise<DemoSettingsResponse> {
  return db.transaction().execute(async (trx) => {
    const before = parseDemoSettings(await repo.readSettingForUpdate(trx, SETTING_KEYS.demo));
    const after = {
      ...before,
      isDemoVisible: toggles.isDemoVisible,
      adminAccess: toggles.adminAccess,
      schoolAccess: toggles.schoolAccess,
    };
    await repo.writeSetting(trx, SETTING_KEYS.demo, after, actorId, at);
    await recordChange(trx, { actorId, action: "update", entity: "settings", entityId: SETTING_KEYS.demo, before, after, at });
    return { data: after };
  });
}
