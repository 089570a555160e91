import type { DemoSettingsResponse, SaveDemoSettingsRequest } from "@tally/contract";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { parseDemoSettings, readDemoSettings } from "../scope/scope-settings.service.js";
import { replaceSetting, SETTING_KEYS } from "./settings.service.js";

/** GET /settings/demo: the stored setting with the defaults filled in. */
export async function getDemoSettings(db: Kysely<Database>): Promise<DemoSettingsResponse> {
  return { data: await readDemoSettings(db) };
}

/**
 * POST /settings/demo: replaces the three toggles, keeping which school and cohort are the demo
 * as stored; saves apply one after the other, each with its audit row (replaceSetting).
 */
export async function saveDemoSettings(
  db: Kysely<Database>,
  actorId: number,
  toggles: SaveDemoSettingsRequest,
  at: Date,
): Promise<DemoSettingsResponse> {
  return db.transaction().execute(async (trx) => {
    const after = await replaceSetting(
      trx,
      SETTING_KEYS.demo,
      parseDemoSettings,
      (before) => ({ ...before, isDemoVisible: toggles.isDemoVisible, adminAccess: toggles.adminAccess, schoolAccess: toggles.schoolAccess }),
      { actorId, action: "update", at },
    );
    return { data: after };
  });
}
