import type { AlertsQuery } from "@tally/contract";
import type { ServerContext } from "../../context.js";
import { openExport } from "../exports/exports.service.js";
import type { Caller } from "../scope/scope.service.js";
import { alertsCsv } from "./alerts-csv.js";
import { alertsForCsv, listAnswerFor } from "./alerts-list.service.js";

type CsvQuery = Omit<AlertsQuery, "page" | "pageSize">;

/**
 * The call list is students' names with their missed dates: its CSV is an export like the
 * reports' CSV, so it goes through the export gate — the school's export setting (a district
 * user needs it on at every school the file covers), the bulk-export alarm's block, the
 * download limit — and every student it sends goes into the access record, when the file ends.
 */
export async function alertsCsvExport(ctx: ServerContext, user: Caller, query: CsvQuery): Promise<AsyncGenerator<string>> {
  const covered = query.schoolId !== undefined ? [query.schoolId] : user.accessibleSchoolIds === "all" ? [] : user.accessibleSchoolIds;
  const ticket = await openExport(ctx, user, { action: "csv", schoolIds: covered });
  const alerts = alertsForCsv(ctx.database.db, user, query, listAnswerFor(ctx.database.engine));
  return alertsCsv(ticket.stream(alerts, (alert) => [alert.studentId]));
}
