import { ATTENDANCE_STATUSES, type AttendanceRecordItem } from "@tally/contract";

export interface AttendanceShares {
  present: number;
  late: number;
  absent: number;
}

function share(part: number, total: number): number {
  return Math.min(100, Math.max(0, Math.round((100 * part) / total)));
}

/** Records of the cohort with a known status; anything else cannot be counted. */
export function validRecords(records: AttendanceRecordItem[], cohortId: number): AttendanceRecordItem[] {
  return records.filter(
    (r) => r.cohort_id === cohortId && (ATTENDANCE_STATUSES as readonly string[]).includes(r.status),
  );
}

/**
 * Present, late and absent shares of the given records. Null for no records: a student
 * without attendance must never be shown an invented 90/5/5 default.
 */
export function attendanceShares(records: AttendanceRecordItem[]): AttendanceShares | null {
  if (records.length === 0) return null;
  const count = (status: string) => records.filter((r) => r.status === status).length;
  return {
    present: share(count("present"), records.length),
    late: share(count("late"), records.length),
    absent: share(count("absent"), records.length),
  };
}
