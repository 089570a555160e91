import {
  type DashboardFilter,
  type ReportDataResponse,
  type ReportFileNames,
  type ReportFilter,
  type ReportStudent,
  userListRoleLabel,
} from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import { notFound } from "../../lib/errors.js";
import type { ServerContext } from "../../context.js";
import { getCohortTrends, percentage } from "../attendance/attendance.service.js";
import { listCohorts } from "../cohorts/cohorts.service.js";
import type { Caller } from "../scope/scope.service.js";
import { isSchoolInScope, resolveScope } from "../scope/scope.js";
import { schoolsByIds } from "../schools/schools.service.js";
import { isFullExport } from "../exports/exports.policy.js";
import { type ExportAudit, openExport } from "../exports/exports.service.js";
import { listStudents, summarizeStudents } from "../students/students.service.js";
import { listTeams } from "../teams/teams.service.js";
import type { ReportModel, ReportModelWeek } from "./pdf-report.js";
import { countAttendanceByStudent } from "./reports.repository.js";

/** A report's filters checked against the caller's scope, with the names the server read itself. */
export interface ResolvedReport {
  filter: DashboardFilter;
  /** The filters in words ("School", "Alder High"), for the PDF and the e-mail. */
  filters: Array<{ label: string; value: string }>;
  /** The schools the report covers, for the export right ([] = every school, admins only). */
  schoolIds: number[];
  /** The school, cohort and team chosen, by name (undefined: all), for the file's name. */
  names: ReportFileNames;
}

const SCHOOL_NAMES_SHOWN = 5;

/**
 * Checks each chosen school, cohort and team against the caller's scope: one outside it
 * answers 404 like an id that does not exist. The names come from the database, never from
 * the query.
 */
export async function resolveReport(db: DbExecutor, user: Caller, wanted: ReportFilter): Promise<ResolvedReport> {
  const schoolIds = wanted.schoolId === undefined ? undefined : [wanted.schoolId];
  let schoolText: string;
  let reportSchools: number[];
  if (wanted.schoolId !== undefined) {
    const scope = await resolveScope(db, user, { schoolIds });
    const [school] = await schoolsByIds(db, [wanted.schoolId]);
    if (!school || !isSchoolInScope(scope, wanted.schoolId)) throw notFound();
    schoolText = school.name;
    reportSchools = [school.id];
  } else if (user.accessibleSchoolIds === "all") {
    schoolText = "All schools";
    reportSchools = [];
  } else {
    reportSchools = [...user.accessibleSchoolIds];
    const names = (await schoolsByIds(db, reportSchools)).map((s) => s.name).sort((a, b) => a.localeCompare(b));
    const shown = names.slice(0, SCHOOL_NAMES_SHOWN).join(", ");
    const more = names.length - SCHOOL_NAMES_SHOWN;
    schoolText =
      names.length === 0 ? "No schools" : names.length === 1 ? shown : `All ${names.length} of your schools: ${shown}${more > 0 ? ` and ${more} more` : ""}`;
  }
  // The search goes to the same student query the dashboard's search uses, within the scope.
  const q = wanted.q || undefined;
  const filter: DashboardFilter = { schoolIds, cohortId: wanted.cohortId, teamId: wanted.teamId, q };
  const names: ReportFileNames = { schoolName: wanted.schoolId === undefined ? undefined : schoolText, search: q };
  let cohortText = "All cohorts";
  if (wanted.cohortId !== undefined) {
    const cohort = (await listCohorts(db, user, { schoolIds })).find((c) => c.id === wanted.cohortId);
    if (!cohort) throw notFound();
    cohortText = cohort.name;
    names.cohortName = cohort.name;
  }
  let teamText = "All teams";
  if (wanted.teamId !== undefined) {
    const team = (await listTeams(db, user, { schoolIds })).find((t) => t.id === wanted.teamId);
    if (!team) throw notFound();
    teamText = team.name;
    names.teamName = team.name;
  }
  return {
    filter,
    filters: [
      { label: "School", value: schoolText },
      { label: "Cohort", value: cohortText },
      { label: "Team", value: teamText },
      ...(q ? [{ label: "Search", value: q }] : []),
    ],
    schoolIds: reportSchools,
    names,
  };
}

/**
 * The audit row of an export of student data (the CSV, the PDF report, the report data): who
 * took which filters' data out of the app, and when. The export gate writes it before anything
 * is sent.
 */
export function exportAudit(format: "csv" | "pdf" | "data", report: ResolvedReport): ExportAudit {
  const { schoolIds, cohortId, teamId, q } = report.filter;
  const filters = { schoolId: schoolIds?.[0] ?? null, cohortId: cohortId ?? null, teamId: teamId ?? null, q: q ?? null };
  return { action: `export.${format}`, entity: "student_data", after: { format, filters, covers: report.filters } };
}

/** What the export gate needs of a report: the schools it covers, whether it is a full export, its audit row. */
export function reportExport(user: Caller, report: ResolvedReport, action: "csv" | "pdf" | "data") {
  return { action, schoolIds: report.schoolIds, fullExport: isFullExport(user, report.filter), audit: exportAudit(action, report) };
}

/** One page of the report's students (the students list's order) with their attendance shares. */
export async function reportStudentsPage(
  db: DbExecutor,
  user: Caller,
  filter: DashboardFilter,
  page: { page: number; limit: number },
  { withEmail = false } = {},
): Promise<{ students: ReportStudent[]; total: number }> {
  const { data, total } = await listStudents(db, user, filter, page);
  const scope = await resolveScope(db, user, filter);
  const counts = new Map(
    (await countAttendanceByStudent(db, scope, data.map((s) => s.id), filter.cohortId)).map((c) => [c.student_id, c]),
  );
  const students = data.map((s): ReportStudent => {
    const c = counts.get(s.id);
    const all = c ? c.present + c.late + c.absent : 0;
    return {
      id: s.id,
      first_name: s.first_name,
      last_name: s.last_name,
      ...(withEmail ? { email: s.email } : {}),
      school_name: s.school_name,
      cohort_name: s.cohort?.name ?? null,
      team_name: s.team?.name ?? null,
      presentPct: c ? percentage(c.present, all) : null,
      latePct: c ? percentage(c.late, all) : null,
      absentPct: c ? percentage(c.absent, all) : null,
    };
  });
  return { students, total };
}

/** Rows per students-list call when a report reads every student (the list's own page limit). */
export const REPORT_PAGE_SIZE = 1000;

/** Every student of the filter, page by page: what the CSV streams and the data call returns. */
export async function* allReportStudents(
  db: DbExecutor,
  user: Caller,
  filter: DashboardFilter,
  options: { withEmail?: boolean } = {},
): AsyncGenerator<ReportStudent[]> {
  for (let page = 1; ; page++) {
    const { students } = await reportStudentsPage(db, user, filter, { page, limit: REPORT_PAGE_SIZE }, options);
    if (students.length > 0) yield students;
    if (students.length < REPORT_PAGE_SIZE) return;
  }
}

/**
 * GET /reports/data: every student of the filters and the four totals. A bulk read, so an
 * export: through the export gate (the school's setting, the alarm, the download limit), and
 * every student returned goes into the record of access.
 */
export async function getReportData(ctx: ServerContext, user: Caller, wanted: ReportFilter, simplified: boolean): Promise<ReportDataResponse> {
  const db = ctx.database.db;
  const report = await resolveReport(db, user, wanted);
  const ticket = await openExport(ctx, user, reportExport(user, report, "data"));
  const students: ReportStudent[] = [];
  for await (const page of allReportStudents(db, user, report.filter, { withEmail: !simplified })) students.push(...page);
  const summary = await summarizeStudents(db, user, report.filter);
  ticket.record(students.map((s) => s.id));
  return { students, summary };
}

const dateTime = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
  timeZone: "UTC",
});

/** "25 November 2026 at 07:30 UTC". */
export function formatGeneratedAt(at: Date): string {
  const parts = Object.fromEntries(dateTime.formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.day} ${parts.month} ${parts.year} at ${parts.hour}:${parts.minute} UTC`;
}

const sumOrNull = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.min(100, a + b));

/**
 * Everything the PDF prints, read for the caller: totals, trend, students (at most `studentLimit`);
 * and the ids of the students it names, for the record of access.
 */
export async function buildReportModel(
  db: DbExecutor,
  user: Caller,
  report: ResolvedReport,
  options: { includeStudents: boolean; studentLimit: number; now: Date },
): Promise<ReportModel & { studentIds: number[] }> {
  const { filter } = report;
  const [summary, trend, page] = await Promise.all([
    summarizeStudents(db, user, filter),
    getCohortTrends(db, user, filter, "both"),
    options.includeStudents && options.studentLimit > 0
      ? reportStudentsPage(db, user, filter, { page: 1, limit: options.studentLimit })
      : Promise.resolve({ students: [] as ReportStudent[], total: 0 }),
  ]);
  const weeks: ReportModelWeek[] = trend.map((p) => ({
    week: p.week,
    mentor: sumOrNull(p.mentorPresent, p.mentorLate),
    advisor: sumOrNull(p.advisorPresent, p.advisorLate),
    mentorPresent: p.mentorPresent,
    mentorLate: p.mentorLate,
    advisorPresent: p.advisorPresent,
    advisorLate: p.advisorLate,
  }));
  const generatedAt = formatGeneratedAt(options.now);
  const chosen = report.filters
    .filter((f) => !f.value.startsWith("All "))
    .map((f) => (f.label === "Search" ? `Search: ${f.value}` : f.value));
  return {
    title: "Attendance Report",
    filters: report.filters,
    footerNote: `${chosen.length > 0 ? chosen.join(" · ") : "All schools"} · generated ${generatedAt}`,
    generatedAt,
    generatedAtIso: options.now.toISOString(),
    generatedBy: `${user.username} (${userListRoleLabel(user.role)})`,
    totals: {
      schools: summary.schoolCount,
      students: summary.studentCount,
      cohorts: summary.cohortCount,
      teams: summary.teamCount,
    },
    trend: weeks.map((w) => ({ week: w.week, mentor: w.mentor, advisor: w.advisor })),
    trendTable: weeks,
    includeStudents: options.includeStudents,
    students: page.students.map((s) => ({
      name: `${s.first_name} ${s.last_name}`.trim(),
      school: s.school_name,
      cohort: s.cohort_name,
      team: s.team_name,
      present: s.presentPct,
      late: s.latePct,
      absent: s.absentPct,
    })),
    // The list's own total, so "and N more" agrees with the rows above it.
    studentIds: page.students.map((s) => s.id),
    moreStudents: options.includeStudents ? Math.max(0, (options.studentLimit > 0 ? page.total : summary.studentCount) - page.students.length) : 0,
  };
}
