import type { ServerContext } from "../../context.js";
import { analyzeImportTables } from "./imports.repository.js";

/**
 * The embedded engine has no autovacuum: after an import or undo its planner statistics are
 * refreshed here, after the reply (the person waits for the data, not for the statistics).
 * It is best-effort: a failure only leaves older statistics, so it is not reported.
 */
export function refreshPlannerStatistics(ctx: ServerContext): void {
  if (ctx.database.engine !== "embedded") return;
  analyzeImportTables(ctx.database.db).catch(() => undefined);
}
