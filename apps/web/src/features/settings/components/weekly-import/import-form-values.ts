import {
  type AdminCohortItem,
  dayAfterWeek,
  type ImportWeek,
  IMPORT_FILE_FIELDS,
  IMPORT_FILE_LABELS,
  IMPORT_LIMITS,
  type ImportFileField,
  isCsvFile,
  lastCompletedWeek as lastCompletedCohortWeek,
  weekDates,
} from "@tally/contract";
import { checkCohortDraft, draftWeekCount } from "../../lib/cohort-draft";

export type CohortMode = "new" | "existing";

/** Everything the import form holds; kept when the preview sends the person back to edit. */
export interface ImportFormValues {
  mode: CohortMode;
  cohortName: string;
  programType: string;
  startDate: string;
  endDate: string;
  totalExpectedHours: string;
  cohortId: string;
  /** null until the person types one: till then the cohort's current week is shown. */
  weekNumber: string | null;
  files: Record<ImportFileField, File | null>;
}

/** Most imports are a further week of the running cohort: the form opens on Existing cohort (issue 29). */
export const EMPTY_IMPORT_FORM: ImportFormValues = {
  mode: "existing",
  cohortName: "",
  programType: "",
  startDate: "",
  endDate: "",
  totalExpectedHours: "",
  cohortId: "",
  weekNumber: null,
  files: { attendanceReport: null, progressReport: null, reflectionReport: null },
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const dayNumber = (today: Date) => Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
const isoOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** A date typed or stored as YYYY-MM-DD that is a real day. */
const isDay = (value: string) => ISO_DATE.test(value) && Number.isFinite(Date.parse(`${value}T00:00:00Z`));

/**
 * The week a coordinator imports on `today` (where the person is): the programme calendar's
 * last completed week, null while the cohort's dates are not both days.
 */
export function lastCompletedWeek(startDate: string, endDate: string, today: Date = new Date()): number | null {
  if (!isDay(startDate) || !isDay(endDate)) return null;
  return lastCompletedCohortWeek(startDate, endDate, isoOf(dayNumber(today)));
}

/** A week of the cohort with its first and last day (the programme calendar's). */
export function weekOf(startDate: string, week: number): ImportWeek | null {
  if (!isDay(startDate) || !Number.isInteger(week) || week < 1) return null;
  return weekDates(startDate, week);
}

/**
 * The cohort running on `today` (the latest started of those not yet ended), else the one
 * that ended last: the cohort a coordinator imports into.
 */
export function runningCohort(cohorts: readonly AdminCohortItem[], today: Date = new Date()): AdminCohortItem | null {
  const day = isoOf(dayNumber(today));
  const running = cohorts.filter((c) => c.start_date <= day && day <= c.end_date).sort((a, b) => b.start_date.localeCompare(a.start_date));
  const ended = cohorts.filter((c) => c.end_date < day).sort((a, b) => b.end_date.localeCompare(a.end_date));
  return running[0] ?? ended[0] ?? null;
}

/** What choosing a program type fills in: its length (end date from the start) and 20 hours a week. */
export const PROGRAM_WEEKS: Record<string, number | undefined> = {
  "Internship (4 week)": 4,
  "Internship (6 week)": 6,
  "Internship (8 week)": 8,
};
export const HOURS_PER_WEEK = 20;

/**
 * The new cohort's fields after `patch`, with the end date and expected hours a program type
 * implies filled in where they are empty or still what was filled in before (never over what
 * the person typed).
 */
export function withProgramDefaults(old: ImportFormValues, patch: Partial<ImportFormValues>): ImportFormValues {
  const next = { ...old, ...patch };
  if (!("programType" in patch) && !("startDate" in patch)) return next;
  const implied = (v: ImportFormValues) => {
    const weeks = PROGRAM_WEEKS[v.programType];
    return {
      // The day after its last week: the days between start and end are then exactly its weeks.
      endDate: weeks && isDay(v.startDate) ? dayAfterWeek(v.startDate, weeks) : "",
      hours: weeks ? String(weeks * HOURS_PER_WEEK) : "",
    };
  };
  const before = implied(old);
  const after = implied(next);
  if (after.endDate && (old.endDate === "" || old.endDate === before.endDate)) next.endDate = after.endDate;
  if (after.hours && (old.totalExpectedHours === "" || old.totalExpectedHours === before.hours)) next.totalExpectedHours = after.hours;
  return next;
}

/** The cohort the form is about: the chosen one, or the dates typed for a new one. */
export function cohortDates(values: ImportFormValues, cohorts: AdminCohortItem[]) {
  if (values.mode === "new") return { startDate: values.startDate, endDate: values.endDate };
  const cohort = cohorts.find((c) => String(c.id) === values.cohortId);
  return cohort ? { startDate: cohort.start_date, endDate: cohort.end_date } : null;
}

/** Where the week in the week box comes from. */
export type WeekSource = "typed" | "file" | "last-completed";

/**
 * The week number to send: what was typed, else the week the meeting report's dates fall in
 * (`fromFile`), else the cohort's last completed week.
 */
export function effectiveWeek(values: ImportFormValues, cohorts: AdminCohortItem[], today?: Date, fromFile: number | null = null): string {
  if (values.weekNumber !== null) return values.weekNumber;
  if (fromFile !== null) return String(fromFile);
  const dates = cohortDates(values, cohorts);
  const week = dates ? lastCompletedWeek(dates.startDate, dates.endDate, today) : null;
  return week === null ? "" : String(week);
}

/** Why a chosen file cannot be sent, or null: CSV only (the contract's rule), not empty, at most 10 MB. */
export function fileProblem(file: File | null, label: string): string | null {
  if (!file) return `${label} is required`;
  if (!isCsvFile(file.name, file.type)) return `${label} must be a CSV file (.csv)`;
  if (file.size === 0) return `${label} is empty`;
  if (file.size > IMPORT_LIMITS.maxFileBytes) return `${label} is larger than 10 MB`;
  return null;
}

/** The spec's "Import form" rules, one message per field; empty when the form can be sent. */
export function validateImportForm(values: ImportFormValues, week: string, cohorts: AdminCohortItem[]): Record<string, string> {
  const errors: Record<string, string> = {};
  if (values.mode === "new") {
    const found = checkCohortDraft({ ...values, name: values.cohortName }).errors;
    const map: Record<string, string> = {
      name: "cohortName",
      program_type: "programType",
      start_date: "startDate",
      end_date: "endDate",
      total_expected_hours: "totalExpectedHours",
    };
    for (const [from, to] of Object.entries(map)) if (found[from]) errors[to] = found[from];
  } else if (!cohorts.some((c) => String(c.id) === values.cohortId)) {
    errors.cohortId = "Select a cohort";
  }
  const weekProblem = weekNumberProblem(week, values, cohorts);
  if (weekProblem) errors.weekNumber = weekProblem;
  for (const field of IMPORT_FILE_FIELDS) {
    const problem = fileProblem(values.files[field], IMPORT_FILE_LABELS[field]);
    if (problem) errors[field] = problem;
  }
  return errors;
}

function weekNumberProblem(week: string, values: ImportFormValues, cohorts: AdminCohortItem[]): string | null {
  if (week.trim() === "") return "Week number is required";
  const n = Number(week);
  if (!Number.isInteger(n) || n < 1) return "Week number must be a whole number of 1 or more";
  const dates = cohortDates(values, cohorts);
  const weeks = dates ? draftWeekCount(dates.startDate, dates.endDate) : null;
  if (weeks !== null && n > weeks) return `Week number must be at most ${weeks}, the cohort's last week`;
  return null;
}

/** The multipart body the two import endpoints take. */
export function importFormData(values: ImportFormValues, week: string): FormData {
  const form = new FormData();
  if (values.mode === "existing") {
    form.set("cohortId", values.cohortId);
  } else {
    form.set("cohortName", values.cohortName.trim());
    form.set("programType", values.programType);
    form.set("startDate", values.startDate);
    form.set("endDate", values.endDate);
    form.set("totalExpectedHours", values.totalExpectedHours.trim());
  }
  form.set("weekNumber", week.trim());
  // Files last: the server can read the fields before the bodies of the files.
  for (const field of IMPORT_FILE_FIELDS) {
    const file = values.files[field];
    if (file) form.set(field, file, file.name);
  }
  return form;
}

/** "12.3 KB", "1.2 MB", "512 bytes". */
export function fileSizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
