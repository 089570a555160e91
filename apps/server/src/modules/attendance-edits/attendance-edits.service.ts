import type { AttendanceRecordItem, UpdateAttendanceRequest } from "@tally/contract";
import type { ServerContext } from "../../context.js";
import { evaluateAlertsAndAnnounce } from "../alerts/alerts-live.service.js";
import { correctAttendance } from "../attendance/attendance-edit.service.js";
import type { ScopeSubject } from "../scope/scope.js";

/**
 * PUT /attendance/:id: the correction, then the student's alerts are evaluated again (issue 30:
 * "rules are evaluated after every ... attendance edit"), only that student's: nobody else's
 * facts changed. Like every trigger, the evaluation never fails the correction.
 */
export async function editAttendance(
  ctx: ServerContext,
  user: ScopeSubject & { id: number },
  id: number,
  body: UpdateAttendanceRequest,
): Promise<AttendanceRecordItem> {
  const { record, studentId, changed } = await correctAttendance(ctx, user, id, body);
  if (changed) await evaluateAlertsAndAnnounce(ctx, { cohortIds: [record.cohort_id], studentIds: [studentId] });
  return record;
}
