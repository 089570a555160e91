import { type AttendanceRecordItem, MESSAGES, meetingTypeLabel, type UpdateAttendanceRequest } from "@tally/contract";
import type { ServerContext } from "../../context.js";
import { shareImportsLock } from "../../db/import-lock.js";
import { forbidden, notFound } from "../../lib/errors.js";
import { recordChange } from "../audit/audit.service.js";
import { resolveScope, type ScopeSubject } from "../scope/scope.js";
import { readFeatureSettings } from "../settings/settings.service.js";
import { canEditStudent } from "../students/students.policy.js";
import * as repo from "./attendance-edit.repository.js";
import { attendanceItem } from "./attendance.service.js";

/**
 * PUT /attendance/:id: corrects one meeting's status (a report's mistake, an absence excused
 * afterwards). In the scope of a student edit (its school, a cohort visible there), or 404; on
 * the terms of a student edit (admins always, others where student editing is on for the
 * meeting's school), or 403. A change writes an audit row on the student; `changed` says whether there was one.
 */
export async function correctAttendance(
  ctx: ServerContext,
  user: ScopeSubject & { id: number },
  id: number,
  body: UpdateAttendanceRequest,
): Promise<{ record: AttendanceRecordItem; studentId: number; changed: boolean }> {
  const status = body.status;
  const excused = status === "absent" && body.excused === true;
  const now = ctx.clock.now();
  const { record, changed } = await ctx.database.db.transaction().execute(async (trx) => {
    // Never while an import or its undo runs: the undo then sees this correction, or it waits.
    await shareImportsLock(trx);
    // The scope of a student edit: the demo school's records are read-only to admins too.
    const scope = await resolveScope(trx, user);
    const found = await repo.lockRecordInScope(trx, scope, id);
    if (!found) throw notFound();
    if (!canEditStudent(user.role, await readFeatureSettings(trx), found.school_id, found.school_id)) throw forbidden(MESSAGES.studentEditingOff);
    if (found.status === status && found.excused === excused) return { record: found, changed: false };
    await repo.setRecordStatus(trx, id, status, excused, now);
    await recordChange(trx, {
      actorId: user.id,
      action: repo.ATTENDANCE_EDIT_ACTION,
      entity: "student",
      entityId: found.student_id,
      before: { status: found.status, excused: found.excused },
      after: {
        meeting: `${meetingTypeLabel(found.meeting_type)}, ${found.date} (Week ${found.week_number})`,
        status,
        excused,
        attendanceId: id,
      },
      at: now,
    });
    return { record: { ...found, status, excused }, changed: true };
  });
  return { record: attendanceItem(record), studentId: record.student_id, changed };
}
