import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { DemoSeedResult } from "../../db/seed/demo-seed.js";
import { evaluateAlerts } from "./alert-evaluation.service.js";

/**
 * The demo's alerts, evaluated once after the seed committed, so a new user's "Needs attention"
 * is not empty. They are evaluated as of the demo's own weeks (its asOf, in 2026), not today:
 * the alerts open then, so no weekly digest counts them as new and the demo accounts get no
 * burst of digest e-mails when the server starts.
 */
export async function evaluateDemoAlerts(db: Kysely<Database>, seeded: Pick<DemoSeedResult, "alerts">): Promise<string[]> {
  const { cohortIds, asOf } = seeded.alerts;
  const result = await evaluateAlerts(db, { cohortIds, now: asOf });
  return [`Demo alerts: ${result.opened} raised as of ${asOf.toISOString().slice(0, 10)} (Needs attention).`];
}
