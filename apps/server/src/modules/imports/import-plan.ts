import { cohortWeekCount, type ImportAction, type ImportStudentDetail, type ImportSummary, type ReportRowChoice, weekFirstDay, weekLastDay } from "@tally/contract";
import type { WeeklyFlag } from "../../db/schema.js";
import type { AttendanceKeyRow } from "../attendance/attendance-import.service.js";
import type { StoredWeeklyRow, WeeklyValues } from "../weekly-data/weekly-data-import.service.js";
import { calculateFlags, mergeFlags, WEEKLY_IMPORT_CODES } from "../report-formats/flag-rules.js";
import { progressFacts, reflectionFacts } from "../report-formats/row-choice.js";
import type { RosterStudent } from "./roster-matching.js";
import { eachInTurns, loopTurns } from "../../lib/yield-to-loop.js";

export interface PlanCohort {
  startDate: string;
  endDate: string;
  totalExpectedHours: number | null;
}

/** The attendance change of one meeting row. */
export interface AttendanceChange {
  action: ImportAction;
  /** The existing record (updated or none). */
  existing: AttendanceKeyRow | null;
  date: string;
  meetingType: "mentor" | "advisor";
  status: "present" | "late" | "absent";
  excused: boolean;
}

/** A student as the writer needs them: without their report rows. */
export type PlannedStudent = Omit<RosterStudent, "meetings" | "progress" | "reflection">;

export interface StudentPlan {
  student: PlannedStudent;
  attendance: AttendanceChange[];
  weekly: { action: ImportAction; existing: StoredWeeklyRow | null; values: WeeklyValues };
}

/** A team the plan creates, named once however many students join it. */
export interface NewTeam {
  key: string;
  name: string;
  schoolId: number;
}

export interface ImportPlan {
  week: number;
  weekStart: string;
  /** The week's last day (the programme calendar's). */
  weekEnd: string;
  students: StudentPlan[];
  summary: ImportSummary;
}

const flagKey = (flags: readonly WeeklyFlag[]) => flags.map((f) => `${f.code}\u0000${f.text}`).join("\u0001");

function sameWeekly(a: WeeklyValues, b: WeeklyValues): boolean {
  return (
    a.week_start === b.week_start &&
    a.reflection === b.reflection &&
    a.advisor_notes === b.advisor_notes &&
    a.hours_reported === b.hours_reported &&
    flagKey(a.flags) === flagKey(b.flags)
  );
}

/** The week's advisor notes: every distinct note of the student's meeting rows, in file order. */
function advisorNotes(student: RosterStudent): string | null {
  const notes = [...new Set(student.meetings.map((m) => m.advisorNotes?.trim()).filter((n): n is string => !!n))];
  return notes.length > 0 ? notes.join("\n") : null;
}

/**
 * What the import would do for each student: attendance actions against the records the
 * database has, and the week's weekly row with the flags these three files decide (an import
 * replaces only its own flag codes, so the flag uploader's codes for the week stay).
 */
export async function planImport(
  cohort: PlanCohort,
  week: number,
  roster: readonly RosterStudent[],
  existingAttendance: readonly AttendanceKeyRow[],
  existingWeekly: readonly StoredWeeklyRow[],
): Promise<ImportPlan> {
  const attendanceByKey = new Map<string, AttendanceKeyRow>();
  await eachInTurns(existingAttendance, (a) => attendanceByKey.set(`${a.student_id}|${a.date}|${a.meeting_type}`, a));
  const weeklyByStudent = new Map<number, StoredWeeklyRow>();
  await eachInTurns(existingWeekly, (w) => weeklyByStudent.set(w.student_id, w));
  const weekCount = cohortWeekCount(cohort.startDate, cohort.endDate);
  const weekStart = weekFirstDay(cohort.startDate, week);
  const weekEnd = weekLastDay(cohort.startDate, week);
  const summary: ImportSummary = {
    totalStudentsInFiles: roster.length,
    newStudentsCreatedCount: 0,
    attendanceRecordsCreated: 0,
    attendanceRecordsUpdated: 0,
    weeklyDataCreated: 0,
    weeklyDataUpdated: 0,
    studentsProcessedForWeeklyData: roster.length,
  };

  const students: StudentPlan[] = [];
  const turn = loopTurns();
  for (const student of roster) {
    if (turn.due()) await turn.yield();
    if (student.existingId === null) summary.newStudentsCreatedCount++;
    const attendance = student.meetings.map((m): AttendanceChange => {
      const existing = student.existingId === null ? undefined : attendanceByKey.get(`${student.existingId}|${m.date}|${m.meetingType}`);
      // Excused and plain Absent count the same, but a switch between them is still a change to write.
      const same = existing !== undefined && existing.status === m.status && existing.excused === m.excused;
      const action: ImportAction = !existing ? "created" : same ? "none" : "updated";
      if (action === "created") summary.attendanceRecordsCreated++;
      if (action === "updated") summary.attendanceRecordsUpdated++;
      return { action, existing: existing ?? null, date: m.date, meetingType: m.meetingType, status: m.status, excused: m.excused };
    });

    const existing = student.existingId === null ? undefined : weeklyByStudent.get(student.existingId);
    const computed = calculateFlags({
      week,
      weekCount,
      totalExpectedHours: cohort.totalExpectedHours,
      inPlatformSource: true,
      progress: progressFacts(student.progress),
      reflection: reflectionFacts(student.reflection),
      meetings: {
        mentorAbsent: student.meetings.some((m) => m.meetingType === "mentor" && m.status === "absent"),
        advisorAbsent: student.meetings.some((m) => m.meetingType === "advisor" && m.status === "absent"),
      },
    });
    const values: WeeklyValues = {
      week_start: weekStart,
      flags: mergeFlags(existing?.flags ?? [], computed, WEEKLY_IMPORT_CODES),
      reflection: student.reflection?.used?.reflection ?? null,
      advisor_notes: advisorNotes(student),
      hours_reported: student.reflection?.used?.hours ?? null,
    };
    const action: ImportAction = !existing ? "created" : sameWeekly(existing, values) ? "none" : "updated";
    if (action === "created") summary.weeklyDataCreated++;
    if (action === "updated") summary.weeklyDataUpdated++;
    students.push({ student, attendance, weekly: { action, existing: existing ?? null, values } });
  }
  return { week, weekStart, weekEnd, students, summary };
}

/** A student's school and team names, for the preview. */
export type PlaceNames = (student: PlannedStudent) => { schoolName: string | null; teamName: string | null };

/** The rows used of a student with several rows in a platform report; undefined for none such. */
export type RowsUsed = (student: PlannedStudent) => ReportRowChoice[] | undefined;

/** The preview's per-student list (the spec's shape, with each student's school and team). */
export async function studentDetails(plan: ImportPlan, names: PlaceNames, rowsUsed: RowsUsed): Promise<ImportStudentDetail[]> {
  const details: ImportStudentDetail[] = [];
  const turn = loopTurns();
  for (const { student, attendance, weekly } of plan.students) {
    if (turn.due()) await turn.yield();
    const used = rowsUsed(student);
    details.push({
      studentFullName: student.fullName,
      studentId: student.existingId,
      isNewStudent: student.existingId === null,
      ...names(student),
      weeklyData: {
        action: weekly.action,
        flags: weekly.values.flags,
        total_hours_reported: weekly.values.hours_reported,
        reflection: weekly.values.reflection,
      },
      attendance: attendance.map((a) => ({ date: a.date, status: a.status, excused: a.excused, meetingType: a.meetingType, action: a.action })),
      ...(used ? { rowsUsed: used } : {}),
    });
  }
  return details;
}
