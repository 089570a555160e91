import { DEMO_DEFAULTS, DEMO_TOGGLE_DEFAULTS, type DemoSettings } from "@tally/contract";
import { z } from "zod";
import type { DbExecutor } from "../../db/executor.js";
import * as repo from "./scope.repository.js";

// The two settings every request's scope stands on: which school and cohort are the demo (with
// its toggles), and the cohort visibility rows. How they are read is scope's; the settings
// module (the admin screens, above scope) writes them and reads them through here.

export { DEMO_SETTING_KEY, type VisibilityRow } from "./scope.repository.js";

// Lenient: a malformed or partial stored value falls back to the defaults rather than failing.
const storedDemo = z.object({
  schoolId: z.number().int().catch(DEMO_DEFAULTS.schoolId).default(DEMO_DEFAULTS.schoolId),
  cohortId: z.number().int().catch(DEMO_DEFAULTS.cohortId).default(DEMO_DEFAULTS.cohortId),
  isDemoVisible: z.boolean().catch(DEMO_TOGGLE_DEFAULTS.isDemoVisible).default(DEMO_TOGGLE_DEFAULTS.isDemoVisible),
  adminAccess: z.boolean().catch(DEMO_TOGGLE_DEFAULTS.adminAccess).default(DEMO_TOGGLE_DEFAULTS.adminAccess),
  schoolAccess: z.boolean().catch(DEMO_TOGGLE_DEFAULTS.schoolAccess).default(DEMO_TOGGLE_DEFAULTS.schoolAccess),
});

/**
 * The 'demo' setting with defaults filled in: which school and cohort are the demo and the
 * three toggles. A malformed stored value falls back field by field, never fails a request.
 */
export function parseDemoSettings(value: unknown): DemoSettings {
  const parsed = storedDemo.safeParse(value ?? {});
  return parsed.success ? parsed.data : { ...DEMO_DEFAULTS, ...DEMO_TOGGLE_DEFAULTS };
}

/** For callers that did not read the demo setting with the account (see loadCaller). */
export async function readDemoSettings(db: DbExecutor): Promise<DemoSettings> {
  return parseDemoSettings(await repo.readDemoSetting(db));
}

/** Every cohort visibility row. */
export function listCohortVisibility(db: DbExecutor): Promise<repo.VisibilityRow[]> {
  return repo.listCohortVisibility(db);
}
