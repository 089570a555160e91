import { attendanceStatusLabel, type CsvCell, csvRecord, meetingTypeLabel, type Role, type StudentExport, UTF8_BOM, userListRoleLabel } from "@tally/contract";
import type { StudentSummaryModel } from "../reports/pdf-report.js";

/**
 * Every table that holds a row about a student, by name: the export writes one CSV of each
 * (`<table>.csv`). The completeness test compares it with the migrated schema, so a new table
 * that names students fails it until it is exported here.
 */
export const EXPORTED_TABLES = ["students", "student_cohorts", "student_teams", "attendance_records", "weekly_data", "access_log", "alerts"] as const;
export type ExportedTable = (typeof EXPORTED_TABLES)[number];

/**
 * Student-linked tables left out on purpose, with the exported tables they copy: the trigger-
 * maintained student_rollup (migration 003) keeps each student's school, newest team and
 * cohorts for the dashboard counts, which students, student_teams and student_cohorts hold.
 * crm_enrolled_sessions (migration 028) keeps, per flag import, the count of the week's CRM
 * sessions still Enrolled, which the week's UNRECORDED_SESSIONS flag in weekly_data states
 * ("Attendance not recorded for N session(s)"); the rest of its row is the import's time.
 */
export const DERIVED_STUDENT_TABLES: Readonly<Record<string, readonly ExportedTable[]>> = {
  student_rollup: ["students", "student_teams", "student_cohorts"],
  crm_enrolled_sessions: ["weekly_data"],
};

/** "School staff (Admin)": who handled the records, as the student reads it. */
const staffWords = (role: Role) => `School staff (${userListRoleLabel(role)})`;

type Table = { columns: readonly string[]; rows: CsvCell[][] };

const csvFile = ({ columns, rows }: Table) => UTF8_BOM + csvRecord(columns) + rows.map(csvRecord).join("");

/** Each exported table's rows about the student, as CSV text (UTF-8 with BOM, formula-safe cells). */
export function exportCsvFiles(doc: StudentExport): Record<ExportedTable, string> {
  const s = doc.student;
  const teams = [...(s.activeTeam ? [s.activeTeam] : []), ...s.previousTeams];
  const tables: Record<ExportedTable, Table> = {
    students: {
      columns: ["student_id", "first_name", "last_name", "email", "school_id", "school_name", "benefit_assignment_id"],
      rows: [[s.id, s.first_name, s.last_name, s.email, s.school_id, s.school_name, s.benefit_assignment_id]],
    },
    student_cohorts: {
      columns: ["student_id", "cohort_id", "cohort_name", "start_date", "end_date"],
      rows: s.cohorts.map((c) => [s.id, c.id, c.name, c.start_date, c.end_date]),
    },
    student_teams: {
      columns: ["student_id", "team_id", "team_name", "cohort_id", "organization_description", "project_description", "start_date", "joined_at"],
      rows: teams.map((t) => [s.id, t.id, t.name, t.cohort_id, t.organization_description, t.project_description, t.start_date, t.joined_at]),
    },
    attendance_records: {
      columns: ["student_id", "id", "cohort_id", "week_number", "date", "meeting_type", "status", "excused"],
      rows: doc.attendance.map((a) => [s.id, a.id, a.cohort_id, a.week_number, a.date, a.meeting_type, a.status, a.excused]),
    },
    weekly_data: {
      columns: ["student_id", "id", "cohort_id", "week_number", "week_start", "flags", "reflection", "advisor_notes", "hours_reported", "updated_at"],
      rows: doc.weeklyData.map((w) => [
        s.id,
        w.id,
        w.cohort_id,
        w.week_number,
        w.week_start,
        w.flags.map((f) => `${f.code}: ${f.text}`).join("; "),
        w.reflection,
        w.advisor_notes,
        w.total_hours_reported,
        w.updated_at,
      ]),
    },
    access_log: {
      columns: ["student_id", "at", "who", "role", "action", "recipient"],
      rows: doc.accessLog.map((a) => [s.id, a.at, a.who, a.role, a.action, a.recipient]),
    },
    // Each alert's timeline (state changes and their notes) in one cell: the events name no student.
    alerts: {
      columns: ["student_id", "id", "cohort_id", "rule", "severity", "state", "evidence", "opened_at", "updated_at", "condition_ended_at", "data_withdrawn", "timeline"],
      rows: doc.alerts.map((a) => [
        s.id,
        a.id,
        a.cohortId,
        a.rule,
        a.severity,
        a.state,
        a.evidence,
        a.openedAt,
        a.updatedAt,
        a.conditionEndedAt,
        a.dataWithdrawn,
        a.timeline.map((e) => `${e.at} ${e.kind}${e.note ? `: ${e.note}` : ""}`).join("; "),
      ]),
    },
  };
  return Object.fromEntries(EXPORTED_TABLES.map((name) => [name, csvFile(tables[name])])) as Record<ExportedTable, string>;
}

const utcMinute = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** What the summary PDF prints, as text. */
export function summaryModel(doc: StudentExport): StudentSummaryModel {
  const s = doc.student;
  const name = `${s.first_name} ${s.last_name}`;
  const cohortName = new Map(s.cohorts.map((c) => [c.id, c.name]));
  const teams = [...(s.activeTeam ? [s.activeTeam] : []), ...s.previousTeams];
  return {
    title: name,
    kicker: "TALLY · A STUDENT'S OWN RECORDS",
    filters: [
      { label: "School", value: s.school_name ?? "No school" },
      { label: "Cohort", value: s.currentCohort?.name ?? "No cohort" },
      { label: "Team", value: s.activeTeam?.name ?? "No team" },
    ],
    footerNote: "everything Tally holds about this student",
    generatedAt: `${utcMinute(doc.exportedAt)} UTC`,
    generatedAtIso: doc.exportedAt,
    generatedBy: staffWords(doc.exportedBy.role),
    profile: [
      ["First name", s.first_name],
      ["Last name", s.last_name],
      ["E-mail", s.email],
      ["School", s.school_name],
      ["Benefit Assignment ID", s.benefit_assignment_id],
      ["Tally ID", String(s.id)],
    ],
    memberships: [
      ...s.cohorts.map((c) => ({ kind: "Cohort", name: c.name, from: c.start_date, to: c.end_date })),
      ...teams.map((t, i) => ({
        kind: "Team",
        name: `${t.name} (${cohortName.get(t.cohort_id) ?? `cohort ${t.cohort_id}`})`,
        from: `joined ${t.joined_at.slice(0, 10)}`,
        to: i === 0 && s.activeTeam ? "current team" : "earlier team",
      })),
    ],
    attendance: doc.attendance.map((a) => ({
      date: a.date,
      week: a.formatted_week,
      cohort: cohortName.get(a.cohort_id) ?? `Cohort ${a.cohort_id}`,
      meeting: meetingTypeLabel(a.meeting_type),
      status: attendanceStatusLabel(a),
    })),
    weeks: doc.weeklyData.map((w) => ({
      title: `${cohortName.get(w.cohort_id) ?? `Cohort ${w.cohort_id}`} · Week ${w.week_number}${w.week_start ? ` (from ${w.week_start})` : ""}`,
      hours: w.total_hours_reported === null ? "–" : String(w.total_hours_reported),
      flags: w.flags.map((f) => f.text),
      reflection: w.reflection,
      notes: w.advisor_notes,
    })),
    access: doc.accessLog.map((a) => ({
      at: utcMinute(a.at),
      user: staffWords(a.role),
      action: capital(a.action),
    })),
  };
}
