import type { CohortItem, ConfirmFlagImportResponse, FlagRowError, FlagVerificationRow, ProcessFlagsResponse } from "@tally/contract";

export const flagsCohort: CohortItem = {
  id: 7,
  name: "Autumn Interns",
  program_type: "Internship (6 week)",
  start_date: "2026-11-02",
  end_date: "2026-12-14",
  total_expected_hours: 120,
};

export function buildRow(overrides: Partial<FlagVerificationRow> = {}): FlagVerificationRow {
  return {
    studentId: 1,
    name: "Dmitri Silva",
    benefit_assignment_id: "BA-100000",
    calculated_flags: ["Low wellbeing (1/5)", "Absent from 1 session(s)"],
    flags: [],
    matchedBy: "benefit_assignment_id",
    ...overrides,
  };
}

export function buildResult(overrides: Partial<ProcessFlagsResponse> = {}): ProcessFlagsResponse {
  return {
    status: "success",
    message: "Processed",
    validationErrors: [],
    rowErrors: [],
    rowErrorCount: 0,
    runId: "run-1",
    data: [
      buildRow(),
      buildRow({ studentId: 2, name: "Kwame Patel", benefit_assignment_id: "BA-100001", calculated_flags: [], matchedBy: "email" }),
      buildRow({ studentId: 3, name: "Ana Ruiz", benefit_assignment_id: "BA-100002", calculated_flags: ["Low wellbeing (2/5)"], matchedBy: "name" }),
    ],
    unmatched: [
      { file: "attendanceReport", row: 12, name: "Zed Stranger", email: "zed@example.org", reason: "in the CRM report but not in this cohort" },
      { file: "progressReport", row: 4, name: "Lee Only", email: null, reason: "in the progress report but not in the CRM report" },
      { file: "attendanceReport", row: 30, name: "Yu Other", email: null, reason: "in the CRM report but not in this cohort" },
    ],
    benefitIdConflicts: [],
    ...overrides,
  };
}

/** Structured row errors to go with sentences (the page shows the sentences). */
export const rowErrorsOf = (sentences: string[]): FlagRowError[] =>
  sentences.map((_, i) => ({
    report: "reflectionReport",
    file: "reflections.csv",
    row: i + 2,
    column: "Hours worked this week",
    value: "x",
    problem: "is not a number of hours from 0 to 168",
    studentId: null,
    student: null,
    outcome: "Low hours is not decided",
  }));

export const confirmed: ConfirmFlagImportResponse = {
  status: "success",
  message: "Flags imported successfully!",
  batchId: 41,
  summary: { studentsImported: 2, weeklyDataCreated: 1, weeklyDataUpdated: 1, unchanged: 0, benefitAssignmentIdsStored: 2, benefitAssignmentIdsHeldElsewhere: 0 },
  benefitIdConflicts: [],
};

export const csv = (name: string) => new File(["a,b\n1,2\n"], name, { type: "text/csv" });
