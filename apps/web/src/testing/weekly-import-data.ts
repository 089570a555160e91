import type { AdminCohortItem, ImportBatch, ImportPreview, ImportStudentDetail } from "@tally/contract";

// Shapes the import screens' tests share.

export const summerCohort: AdminCohortItem = {
  id: 12,
  name: "Summer 2026",
  program_type: "Internship (6 week)",
  start_date: "2026-06-29",
  end_date: "2026-08-10",
  total_expected_hours: 120,
  student_count: 40,
  week_count: 6,
};

export function buildStudent(n: number, overrides: Partial<ImportStudentDetail> = {}): ImportStudentDetail {
  return {
    studentFullName: `Student ${n}`,
    studentId: null,
    isNewStudent: true,
    schoolName: "Riverside Academy",
    teamName: "Team Blue",
    weeklyData: { action: "created", flags: [], total_hours_reported: 12, reflection: "A short reflection." },
    attendance: [
      { date: "2026-07-14", status: "present", excused: false, meetingType: "mentor", action: "created" },
      { date: "2026-07-16", status: "late", excused: false, meetingType: "advisor", action: "created" },
    ],
    ...overrides,
  };
}

export function buildPreview(students: ImportStudentDetail[], overrides: Partial<ImportPreview> = {}): ImportPreview {
  return {
    summary: {
      totalStudentsInFiles: students.length,
      newStudentsCreatedCount: students.filter((s) => s.isNewStudent).length,
      attendanceRecordsCreated: students.length * 2,
      attendanceRecordsUpdated: 0,
      weeklyDataCreated: students.length,
      weeklyDataUpdated: 0,
      studentsProcessedForWeeklyData: students.length,
    },
    processedStudentDetails: students,
    errorsEncountered: [],
    warnings: [],
    week: { number: 3, start: "2026-07-13", end: "2026-07-19" },
    weekMismatch: null,
    unchanged: null,
    ...overrides,
  };
}

export function buildBatch(overrides: Partial<ImportBatch> = {}): ImportBatch {
  return {
    id: 5,
    createdAt: "2026-07-17T09:30:00.000Z",
    userName: "admin-user",
    cohortId: 12,
    cohortName: "Summer 2026",
    weekNumber: 3,
    files: [
      { field: "attendanceReport", name: "meeting-attendance.csv", size: 6000, sha256: "a".repeat(64) },
      { field: "progressReport", name: "progress.csv", size: 3000, sha256: "b".repeat(64) },
      { field: "reflectionReport", name: "reflections.csv", size: 5000, sha256: "c".repeat(64) },
    ],
    summary: {
      totalStudentsInFiles: 40,
      newStudentsCreatedCount: 40,
      attendanceRecordsCreated: 80,
      attendanceRecordsUpdated: 0,
      weeklyDataCreated: 40,
      weeklyDataUpdated: 0,
      studentsProcessedForWeeklyData: 40,
    },
    createdCohort: true,
    undoneAt: null,
    canUndo: true,
    kind: "weekly",
    ...overrides,
  };
}

export const csvFile = (name: string, text = "a,b\n1,2\n") => new File([text], name, { type: "text/csv" });
