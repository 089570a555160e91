import { randomUUID } from "node:crypto";
import { ACCESS_LOG_LIMITS, type AccessAction, type AccessLogEntry, type AccessLogQuery, type AccessLogResponse, type StudentAccessLogQuery, type StudentAccessLogResponse } from "@tally/contract";
import type { FastifyBaseLogger } from "fastify";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import { notFound } from "../../lib/errors.js";
import { currentClientAddress } from "../audit/client-address.js";
import { resolveStudentReadScope, type ScopeSubject } from "../scope/scope.js";
import * as repo from "./access-log.repository.js";
import { AccessRecorder } from "./access-recorder.js";
import { checkBulkAccess } from "./bulk-export-alarm.js";

// One recorder per server context (one per app): the routes plugin starts it and flushes it on close.
const recorders = new WeakMap<ServerContext, AccessRecorder>();

/** The context's recorder, started on first use. */
export function accessRecorder(ctx: ServerContext, log?: FastifyBaseLogger): AccessRecorder {
  let recorder = recorders.get(ctx);
  if (!recorder) {
    recorder = new AccessRecorder(ctx.database.db, log, (userIds) => checkBulkAccess(ctx, userIds, log));
    recorders.set(ctx, recorder);
  }
  return recorder;
}

/** Writes what is buffered and stops the timer (the app's onClose). */
export async function closeAccessRecorder(ctx: ServerContext): Promise<void> {
  const recorder = recorders.get(ctx);
  recorders.delete(ctx);
  await recorder?.close();
}

export interface AccessReader {
  id: number;
  username: string;
  role: string;
}

/**
 * Records one read of a student's records or one export naming students: who, when, from
 * which address (the request being served), what, which students; an e-mailed report also
 * its recipients. Costs no database round trip: the recorder writes in batches.
 */
export function recordAccess(
  ctx: ServerContext,
  user: AccessReader,
  access: { action: AccessAction; studentIds: readonly number[]; recipient?: string | undefined; fullExport?: boolean | undefined },
): void {
  accessRecorder(ctx).record({
    event: randomUUID(),
    at: ctx.clock.now().toISOString(),
    user_id: user.id,
    username: user.username,
    role: user.role,
    address: currentClientAddress(),
    action: access.action,
    recipient: access.recipient ?? null,
    full_export: access.fullExport === true,
    student_ids: [...new Set(access.studentIds)],
  });
}

const toEntry = (r: repo.AccessRow) => ({
  at: new Date(r.at).toISOString(),
  userId: r.user_id,
  username: r.username,
  role: r.role as StudentAccessLogResponse["data"][number]["role"],
  address: r.address,
  action: r.action as AccessAction,
  ...(r.recipient === null ? {} : { recipient: r.recipient }),
});

/** GET /students/:id/access-log: 404 for a student outside the caller's scope, as the detail. */
export async function studentAccessLog(
  ctx: ServerContext,
  user: ScopeSubject,
  studentId: number,
  query: StudentAccessLogQuery,
): Promise<StudentAccessLogResponse> {
  const db: DbExecutor = ctx.database.db;
  if (!(await repo.studentVisible(db, await resolveStudentReadScope(db, user), studentId))) throw notFound();
  await accessRecorder(ctx).flush();
  const { limit, offset, ...filter } = query;
  const { rows, total } = await repo.findAccess(db, { ...filter, studentId }, { limit, offset });
  return { data: rows.map(toEntry), total };
}

/** GET /access-log: every student's record (super admins). */
export async function accessLog(ctx: ServerContext, query: AccessLogQuery): Promise<AccessLogResponse> {
  await accessRecorder(ctx).flush();
  const { limit, offset, ...filter } = query;
  const { rows, total } = await repo.findAccess(ctx.database.db, filter, { limit, offset });
  return { data: rows.map((r) => ({ ...toEntry(r), studentId: r.student_id })), total };
}

/**
 * Every entry of one student's record, newest first (a student's own export). The caller has
 * already checked the student is in its scope.
 */
export async function studentAccessRecord(ctx: ServerContext, studentId: number): Promise<AccessLogEntry[]> {
  await accessRecorder(ctx).flush();
  const entries: AccessLogEntry[] = [];
  const limit = ACCESS_LOG_LIMITS.maxPageSize;
  for (let offset = 0; ; offset += limit) {
    const { rows } = await repo.findAccess(ctx.database.db, { studentId }, { limit, offset });
    entries.push(...rows.map(toEntry));
    if (rows.length < limit) return entries;
  }
}
