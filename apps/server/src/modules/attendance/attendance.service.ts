import type { AttendanceRecordItem, AttendanceWeek, DashboardFilter, MeetingTypeFilter, StudentAttendanceResponse, TrendPoint } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import { notFound } from "../../lib/errors.js";
import { resolveScope, resolveStudentReadScope, type ScopeSubject } from "../scope/scope.js";
import { matchingStudentIds } from "../students/students.service.js";
import * as repo from "./attendance.repository.js";

export async function getStudentAttendance(
  db: DbExecutor,
  user: ScopeSubject,
  studentId: number,
  filters: { cohortId?: number | undefined; startDate?: string | undefined; endDate?: string | undefined },
): Promise<StudentAttendanceResponse> {
  const scope = await resolveStudentReadScope(db, user);
  const rows = await repo.listStudentAttendance(db, scope, studentId, filters);
  // Absent and out of scope look the same.
  if (!rows) throw notFound();
  const weeks = new Map<number, AttendanceWeek>();
  for (const r of rows) {
    let week = weeks.get(r.week_number);
    if (!week) {
      week = { week: r.week_number, mentor: { present: 0, late: 0 }, advisor: { present: 0, late: 0 } };
      weeks.set(r.week_number, week);
    }
    if (r.status !== "absent") week[r.meeting_type][r.status] += 1;
  }
  return {
    data: rows.map(attendanceItem),
    weeks: [...weeks.values()].sort((a, b) => a.week - b.week),
  };
}

/** A record as the API answers it (GET /attendance/student/:id, PUT /attendance/:id). */
export function attendanceItem(r: repo.StudentAttendanceRow): AttendanceRecordItem {
  return {
    id: r.id,
    cohort_id: r.cohort_id,
    week_number: r.week_number,
    date: r.date,
    meeting_type: r.meeting_type,
    status: r.status,
    excused: r.excused,
    formatted_week: `Week ${r.week_number}`,
  };
}

/** Share of a week's records, as a whole percentage in 0-100; null when there are none. */
export function percentage(part: number, total: number): number | null {
  if (total <= 0) return null;
  return Math.min(100, Math.max(0, Math.round((100 * part) / total)));
}

export async function getCohortTrends(
  db: DbExecutor,
  user: ScopeSubject,
  filter: DashboardFilter,
  meetingType: MeetingTypeFilter,
): Promise<TrendPoint[]> {
  const scope = await resolveScope(db, user, filter);
  const narrow = {
    cohortId: filter.cohortId,
    teamId: filter.teamId,
    meetingType: meetingType === "both" ? undefined : meetingType,
  };
  // A search narrows the trend to the students it finds, like the totals and the list.
  const rows = filter.q
    ? await repo.sumStudentsAttendanceByWeek(db, scope, await matchingStudentIds(db, scope, filter), narrow)
    : await repo.sumAttendanceByWeek(db, scope, narrow);
  const points = new Map<number, TrendPoint>();
  for (const r of rows) {
    let point = points.get(r.week_number);
    if (!point) {
      point = { week: r.week_number, mentorPresent: null, mentorLate: null, advisorPresent: null, advisorLate: null };
      points.set(r.week_number, point);
    }
    const total = r.present + r.late + r.absent;
    if (r.meeting_type === "mentor") {
      point.mentorPresent = percentage(r.present, total);
      point.mentorLate = percentage(r.late, total);
    } else {
      point.advisorPresent = percentage(r.present, total);
      point.advisorLate = percentage(r.late, total);
    }
  }
  // A week whose records all sit in rows with zero counts has nothing to plot.
  return [...points.values()].filter((p) => p.mentorPresent !== null || p.advisorPresent !== null).sort((a, b) => a.week - b.week);
}
