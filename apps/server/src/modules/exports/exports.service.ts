import { type AccessAction, type AuditAction, type AuditEntity, FULL_EXPORTS_ALARM, type FeatureSettings, PRIVACY_MESSAGES } from "@tally/contract";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import { forbidden } from "../../lib/errors.js";
import { recordAccess } from "../access-log/access-log.service.js";
import { exportAlarm } from "../access-log/bulk-export-alarm.js";
import { recordChange } from "../audit/audit.service.js";
import { claimDownload } from "../downloads/downloads.service.js";
import type { Caller } from "../scope/scope.service.js";
import { readFeatureSettings } from "../settings/settings.service.js";
import { assertCanExport } from "./exports.policy.js";

// Issue 41, one export gate. Every export of student data and every bulk read (the PDF report,
// the students CSV, the e-mailed report, the call list's CSV, a student's own export, the report
// data call, a students page larger than a view) opens here, so a new one cannot miss a control:
// the school's export setting → the bulk-export alarm's block → the download claim (the
// per-minute limit and the alarm's full exports, counted atomically before the answer) → the
// audit row of the export → the record of access of each student actually sent.

/** What is about to be exported, as the controls and the record of access need it. */
export interface ExportRequest {
  /** How the record of access names it. */
  action: AccessAction;
  /** The schools the data covers, for the export setting ([] = every school: admins only). */
  schoolIds: readonly number[];
  /** Filters narrowing nothing but the cohort: counts toward the alarm's FULL_EXPORTS_ALARM. */
  fullExport?: boolean | undefined;
  /** Counts against the per-minute download limit (default); the e-mailed report has its own limit. */
  download?: boolean | undefined;
  /** The audit row of the export, written once it is allowed (before anything is sent). */
  audit?: ExportAudit | undefined;
}

/** The audit row of an export. */
export interface ExportAudit {
  action: AuditAction;
  entity: AuditEntity;
  after: unknown;
}

/** An export let through the gate: what it sends is recorded through it. */
export interface ExportTicket {
  /** Records the students the export has sent (a file made whole, a mail gone, a reply). */
  record(studentIds: readonly number[], extra?: { recipient?: string }): void;
  /**
   * Passes a stream's items on, noting the students of each one taken, and records them when
   * the stream ends or breaks off (a closed download records those sent so far).
   */
  stream<T>(items: AsyncIterable<T>, studentsOf: (item: T) => Iterable<number>): AsyncGenerator<T>;
}

/** The feature settings, or undefined when they cannot be read (the spec then allows export, §8). */
async function featuresOrUndefined(db: DbExecutor): Promise<FeatureSettings | undefined> {
  try {
    return await readFeatureSettings(db);
  } catch {
    return undefined;
  }
}

/**
 * May this user export these schools' data now? Refuses with the spec's 403 (export off at a
 * school), the alarm's 403 (exports blocked, or the full exports of the 24 hours spent) or the
 * download limit's 429; otherwise claims the download and answers the ticket to record through.
 * The claim is taken before the export answers, in one locked transaction in the database, so
 * parallel exports on any number of instances are counted one by one.
 */
export async function openExport(ctx: ServerContext, user: Caller, request: ExportRequest): Promise<ExportTicket> {
  const db = ctx.database.db;
  assertCanExport(user, await featuresOrUndefined(db), request.schoolIds);
  const alarm = await exportAlarm(ctx, user.id);
  if (alarm?.standing) throw forbidden(PRIVACY_MESSAGES.exportsBlocked);
  const fullExport = request.fullExport === true;
  const claim = await claimDownload(ctx, user.id, {
    download: request.download !== false,
    fullExport,
    fullExportCap: alarm ? { max: FULL_EXPORTS_ALARM, since: alarm.fullExportsSince } : undefined,
  });
  if (claim === "full-exports-spent") throw forbidden(PRIVACY_MESSAGES.exportsBlocked);
  if (request.audit) {
    const { action, entity, after } = request.audit;
    await recordChange(db, { actorId: user.id, action, entity, entityId: null, before: null, after, at: ctx.clock.now() });
  }
  const record = (studentIds: readonly number[], extra: { recipient?: string } = {}) =>
    recordAccess(ctx, user, { action: request.action, studentIds, fullExport, recipient: extra.recipient });
  return {
    record,
    async *stream<T>(items: AsyncIterable<T>, studentsOf: (item: T) => Iterable<number>): AsyncGenerator<T> {
      const sent: number[] = [];
      try {
        for await (const item of items) {
          for (const id of studentsOf(item)) sent.push(id);
          yield item;
        }
      } finally {
        record(sent);
      }
    },
  };
}

/**
 * A page of students answered as a view (the dashboard's grid): no gate, but every student it
 * returned goes into the record of access, as opening one student does.
 */
export function recordView(ctx: ServerContext, user: Caller, studentIds: readonly number[]): void {
  recordAccess(ctx, user, { action: "view", studentIds });
}
