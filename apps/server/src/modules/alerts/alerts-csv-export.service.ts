import type { Alert, AlertsQuery } from "@tally/contract";
import type { ServerContext } from "../../context.js";
import { assertExportsAllowed } from "../access-log/bulk-export-alarm.js";
import { recordAccess } from "../access-log/access-log.service.js";
import { takeDownload } from "../downloads/downloads.service.js";
import { assertCanExport } from "../reports/reports.policy.js";
import type { Caller } from "../scope/scope.service.js";
import { readFeatureSettings } from "../settings/settings.service.js";
import { alertsCsv } from "./alerts-csv.js";
import { alertsForCsv, listAnswerFor } from "./alerts-list.service.js";

type CsvQuery = Omit<AlertsQuery, "page" | "pageSize">;

/**
 * The call list is students' names with their missed dates: its CSV is an export like the
 * reports' CSV, so it answers to the same rules — the school's export setting (a district user
 * needs it on at every school the file covers), the bulk-export alarm's block, the download
 * limit — and every student it sends goes into the access record, when the file ends.
 */
export async function alertsCsvExport(ctx: ServerContext, user: Caller, query: CsvQuery): Promise<AsyncGenerator<string>> {
  const db = ctx.database.db;
  const covered = query.schoolId !== undefined ? [query.schoolId] : user.accessibleSchoolIds === "all" ? [] : user.accessibleSchoolIds;
  assertCanExport(user, await readFeatureSettings(db).catch(() => undefined), covered);
  await assertExportsAllowed(ctx, user.id);
  await takeDownload(ctx, user.id);
  return recorded(ctx, user, alertsForCsv(db, user, query, listAnswerFor(ctx.database.engine)));
}

async function* recorded(ctx: ServerContext, user: Caller, alerts: AsyncIterable<Alert>): AsyncGenerator<string> {
  const sent: number[] = [];
  async function* noting(): AsyncGenerator<Alert> {
    for await (const alert of alerts) {
      sent.push(alert.studentId);
      yield alert;
    }
  }
  try {
    yield* alertsCsv(noting());
  } finally {
    recordAccess(ctx, user, { action: "csv", studentIds: sent });
  }
}
