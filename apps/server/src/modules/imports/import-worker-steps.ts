import { type ImportPreview, type ImportRowError, type ImportSummary, type ImportWarning, type ImportWeekMismatch, weekDates, weekMostDatesFallIn } from "@tally/contract";
import type { ReportRowChoice } from "@tally/contract";
import type { AttendanceKeyRow } from "../attendance/attendance-import.service.js";
import type { StoredWeeklyRow } from "../weekly-data/weekly-data-import.service.js";
import { joinBlocks } from "../../lib/report-upload.js";
import { type ImportPlan, type NewTeam, type PlanCohort, type PlannedStudent, type RowsUsed, type StudentPlan, planImport, studentDetails } from "./import-plan.js";
import { normaliseName } from "../report-formats/student-names.js";
import { type KnownStudent, type KnownTeam, matchRoster, type NamedRef, type Roster, type RosterStudent } from "./roster-matching.js";
import { readMeetingReport } from "../report-formats/meeting-report.js";
import { readProgressReport } from "../report-formats/progress-report.js";
import { readReflectionReport } from "../report-formats/reflection-report.js";
import type { MeetingRow, ParsedReport, ProgressRow, ReflectionRow, ReportFile, RowError, StudentKey } from "../report-formats/report-types.js";
import { type RowChoice, rowChoiceOf } from "../report-formats/row-choice.js";
import { InternedText } from "../../lib/interned-text.js";
import { normaliseEmail } from "../report-formats/student-names.js";

// The import's reading, matching and planning, run in a worker thread of its own
// (import-worker.ts): the three reports' rows and everything made from them live and die
// there, so the server's own heap and event loop never carry them.

/** A report as it crosses to the worker: the upload's blocks (lib/report-upload.ts). */
export interface ReportBlocks {
  name: string;
  blocks: Uint8Array[];
}

/** What the main thread needs after reading: whom to look up, and the meeting dates. */
export interface ReadSummary {
  /** The file's blocks, handed back untouched (a commit may plan again from them). */
  blocks: Uint8Array[];
  meetingFile: string;
  emails: string[];
  ids: number[];
  dates: string[];
}

/** What the main thread needs after matching: whose records to look up, on which dates. */
export interface MatchSummary {
  existingIds: number[];
  dates: string[];
}

export interface PlanSummary {
  week: number;
  weekStart: string;
  summary: ImportSummary;
  studentCount: number;
  /** Students with something to write: none means the files change nothing. */
  changedCount: number;
  newStudentCount: number;
  /** The teams the plan creates, each once, in the order students first name them. */
  newTeams: NewTeam[];
}

/** Rows the main thread sends in slices before the step that needs them. */
export interface Lookups {
  known: KnownStudent[];
  attendance: AttendanceKeyRow[];
  weekly: StoredWeeklyRow[];
}

interface Reports {
  meeting: ParsedReport<MeetingRow>;
  progress: ParsedReport<ProgressRow> | null;
  reflection: ParsedReport<ReflectionRow> | null;
}

const asFile = (f: ReportBlocks): ReportFile => ({ name: f.name, bytes: joinBlocks(f.blocks) });

const ready = <T>(value: T | null, step: string): T => {
  if (value === null) throw new Error(`import work: ${step} first`);
  return value;
};

/** Whether the writer has anything to do for this student (import-writer.ts). */
function hasWrites(p: StudentPlan): boolean {
  const s = p.student;
  return (
    s.existingId === null ||
    s.joinCohort ||
    s.team.kind === "join" ||
    s.team.kind === "create" ||
    p.weekly.action !== "none" ||
    p.attendance.some((a) => a.action !== "none")
  );
}

export class ImportWorkerSteps {
  private reports: Reports | null = null;
  private roster: Roster | null = null;
  private plan: ImportPlan | null = null;
  private cohort: PlanCohort | null = null;
  /** School and team names by id, for the preview's school and team of each student. */
  private schoolNames = new Map<number, string>();
  private teamNames = new Map<number, string>();
  private changed: StudentPlan[] = [];
  private lookups: Lookups = { known: [], attendance: [], weekly: [] };
  private readonly knownIds = new Set<number>();
  /** The looked-up records' repeated values (dates, statuses, timestamps), one copy each. */
  private readonly text = new InternedText();

  /** The meeting report first: whom to look up, while the other two are being read. */
  async readMeeting(file: ReportBlocks): Promise<ReadSummary> {
    const meeting = await readMeetingReport(asFile(file));
    this.reports = { meeting, progress: null, reflection: null };
    const emails = new Set<string>();
    const ids = new Set<number>();
    const dates = new Set<string>();
    for (const r of meeting.rows) {
      const email = normaliseEmail(r.email);
      if (email !== null) emails.add(email);
      if (r.studentId !== null) ids.add(r.studentId);
      dates.add(r.date);
    }
    return { blocks: file.blocks, meetingFile: meeting.file, emails: [...emails], ids: [...ids], dates: [...dates] };
  }

  /** The progress and reflection reports; their blocks go back. */
  async readPlatform(progress: ReportBlocks, reflection: ReportBlocks): Promise<Uint8Array[][]> {
    const reports = ready(this.reports, "readMeeting");
    reports.progress = await readProgressReport(asFile(progress));
    reports.reflection = await readReflectionReport(asFile(reflection));
    return [progress.blocks, reflection.blocks];
  }

  put<K extends keyof Lookups>(name: K, rows: Lookups[K]): void {
    for (const row of rows) {
      // A member is also found by e-mail: one student must count once, or their name looks shared.
      if (name === "known") {
        const { id } = row as KnownStudent;
        if (this.knownIds.has(id)) continue;
        this.knownIds.add(id);
      } else if (name === "attendance") {
        const a = row as AttendanceKeyRow;
        a.date = this.text.of(a.date);
        a.meeting_type = this.text.of(a.meeting_type) as AttendanceKeyRow["meeting_type"];
        a.status = this.text.of(a.status) as AttendanceKeyRow["status"];
        a.updated_at = this.text.of(a.updated_at);
      } else if (name === "weekly") {
        const w = row as StoredWeeklyRow;
        w.week_start = this.text.of(w.week_start);
        w.updated_at = this.text.of(w.updated_at);
      }
      (this.lookups[name] as unknown[]).push(row);
    }
  }

  async match(schools: NamedRef[], teams: KnownTeam[]): Promise<MatchSummary> {
    const { meeting, progress, reflection } = ready(this.reports, "readMeeting");
    this.roster = await matchRoster({
      meeting,
      progress: ready(progress, "readPlatform"),
      reflection: ready(reflection, "readPlatform"),
      known: this.lookups.known,
      schools,
      teams,
    });
    this.lookups.known = [];
    this.schoolNames = new Map(schools.map((s) => [s.id, s.name]));
    this.teamNames = new Map(teams.map((t) => [t.id, t.name]));
    const existingIds: number[] = [];
    const dates = new Set<string>();
    for (const s of this.roster.students) {
      if (s.existingId !== null) existingIds.push(s.existingId);
      for (const m of s.meetings) dates.add(m.date);
    }
    return { existingIds, dates: [...dates] };
  }

  async makePlan(cohort: PlanCohort, week: number): Promise<PlanSummary> {
    const roster = ready(this.roster, "match");
    this.cohort = cohort;
    this.plan = await planImport(cohort, week, roster.students, this.lookups.attendance, this.lookups.weekly);
    this.lookups = { known: [], attendance: [], weekly: [] };
    const { weekStart, summary, students } = this.plan;
    this.changed = students.filter(hasWrites);
    const newTeams = new Map<string, NewTeam>();
    for (const { student } of this.changed) {
      const team = student.team;
      if (team.kind === "create" && !newTeams.has(team.key)) newTeams.set(team.key, { key: team.key, name: team.name, schoolId: team.schoolId });
    }
    return {
      week,
      weekStart,
      summary,
      studentCount: students.length,
      changedCount: this.changed.length,
      newStudentCount: this.changed.filter((p) => p.student.existingId === null).length,
      newTeams: [...newTeams.values()],
    };
  }

  /**
   * The students with something to write, as the writer needs them (without their report rows,
   * and without the attendance rows that stay as they are), as UTF-8 JSON slices of `size`:
   * bytes the main thread can keep after this worker ends, and decode a slice at a time.
   */
  planSlices(size: number): Uint8Array[] {
    const encoder = new TextEncoder();
    const slices: Uint8Array[] = [];
    for (let start = 0; start < this.changed.length; start += size) {
      // Fields written out, not spread or rest: V8 gives an object made so a hidden class of its own.
      const slice = this.changed.slice(start, start + size).map(({ student: s, attendance, weekly }): StudentPlan => {
        const student: PlannedStudent = {
          existingId: s.existingId,
          fullName: s.fullName,
          firstName: s.firstName,
          lastName: s.lastName,
          email: s.email,
          schoolId: s.schoolId,
          joinCohort: s.joinCohort,
          team: s.team,
          keptTeamId: s.keptTeamId,
        };
        return { student, attendance: attendance.filter((a) => a.action !== "none"), weekly };
      });
      slices.push(encoder.encode(JSON.stringify(slice)));
    }
    return slices;
  }

  /** A student's school and team names: the team they keep, join or get. */
  private placeNames(s: PlannedStudent): { schoolName: string | null; teamName: string | null } {
    const team = s.team;
    const teamName =
      team.kind === "create" ? team.name : team.kind === "join" ? this.teamNames.get(team.teamId) : team.kind === "keep" && s.keptTeamId !== null ? this.teamNames.get(s.keptTeamId) : undefined;
    return { schoolName: this.schoolNames.get(s.schoolId) ?? null, teamName: teamName ?? null };
  }

  /**
   * The preview reply (the spec's shape) as UTF-8 JSON, so the main thread only passes it on;
   * without `unchanged`, which the main thread adds (it knows the import batches).
   */
  async previewJson(): Promise<Uint8Array> {
    const plan = ready(this.plan, "plan");
    const reply: Omit<ImportPreview, "unchanged"> = {
      summary: plan.summary,
      processedStudentDetails: await studentDetails(plan, (s) => this.placeNames(s), this.rowsUsed()),
      errorsEncountered: this.rowErrors(),
      warnings: this.warnings(),
      week: { number: plan.week, start: plan.weekStart, end: plan.weekEnd },
      weekMismatch: this.weekMismatch(),
    };
    return new TextEncoder().encode(JSON.stringify(reply));
  }

  /** Each student's rows used, for those with several rows in the progress or reflection report. */
  private rowsUsed(): RowsUsed {
    const { progress, reflection } = ready(this.reports, "readMeeting");
    const roster = ready(this.roster, "match");
    const used = new Map<PlannedStudent, ReportRowChoice[]>();
    for (const s of roster.students) {
      const choices = [rowChoiceOf(ready(progress, "readPlatform").file, s.progress), rowChoiceOf(ready(reflection, "readPlatform").file, s.reflection)].filter(
        (c) => c !== undefined,
      );
      if (choices.length > 0) used.set(s, choices);
    }
    // The plan's students are the roster's own objects.
    return (s) => used.get(s);
  }

  /**
   * Each row error as a coordinator reads it (issue 29): where, whose row, what is wrong and
   * what happens to the row ("meetings.csv row 85 · Dmitri Silva · Meeting Date "not a date"
   * is not a date — this meeting is skipped").
   */
  private rowErrors(): ImportRowError[] {
    const reports = ready(this.reports, "readMeeting");
    const roster = ready(this.roster, "match");
    const idsByName = new Map<string, number | null>();
    for (const s of roster.students) idsByName.set(normaliseName(s.fullName), s.existingId);
    // A bad platform row is skipped whole; when the student has a whole row too, that one is used.
    const choiceAt = new Map<ParsedReport<StudentKey>, Map<number, RowChoice<StudentKey>>>();
    for (const [report, choiceOf] of [
      [reports.progress, (s: RosterStudent) => s.progress],
      [reports.reflection, (s: RosterStudent) => s.reflection],
    ] as const) {
      if (!report) continue;
      const at = new Map<number, RowChoice<StudentKey>>();
      for (const s of roster.students) for (const row of choiceOf(s)?.rows ?? []) at.set(row, choiceOf(s)!);
      choiceAt.set(report, at);
    }
    const skipped = (report: ParsedReport<StudentKey>, row: number) => {
      const choice = choiceAt.get(report)?.get(row);
      if (choice?.used) return `this row is skipped; row ${choice.used.row} is used`;
      return report === reports.progress
        ? "this row is skipped: its progress and past-due count are not used"
        : "this row is skipped: its hours, rating and reflection are not used";
    };
    const errors: ImportRowError[] = [];
    const add = (e: RowError, type: string, name: string | null, studentId: number | null, outcome: string) =>
      errors.push({
        studentId,
        studentName: name,
        type,
        file: e.file,
        row: e.row,
        column: e.column,
        value: e.value,
        error: `${e.file} row ${e.row}${name ? ` · ${name}` : ""} · ${e.column} "${e.value}" ${e.problem} — ${outcome}`,
      });
    for (const [report, meeting] of [[reports.meeting, true], [reports.progress, false], [reports.reflection, false]] as const) {
      if (!report) continue;
      const names = new Map<number, string>(report.flawed.map((r) => [r.row, r.fullName]));
      for (const e of report.errors) {
        const name = names.get(e.row) || null;
        const outcome = name === null ? "this row is skipped" : meeting ? "this meeting is skipped" : skipped(report, e.row);
        add(e, "parse", name, name === null ? null : (idsByName.get(normaliseName(name)) ?? null), outcome);
      }
    }
    for (const p of roster.problems) add(p.error, p.type, p.studentName || null, p.studentId, "this row is skipped");
    return errors;
  }

  /** Set when most meeting rows fall outside the chosen week, with the cohort week most of them fall in. */
  private weekMismatch(): ImportWeekMismatch | null {
    const { meeting } = ready(this.reports, "readMeeting");
    const plan = ready(this.plan, "plan");
    const cohort = ready(this.cohort, "plan");
    const outside = meeting.rows.filter((r) => r.date < plan.weekStart || r.date > plan.weekEnd).map((r) => r.date);
    if (outside.length * 2 <= meeting.rows.length) return null;
    const most = weekMostDatesFallIn(cohort.startDate, cohort.endDate, outside);
    return {
      dateCount: meeting.rows.length,
      outsideCount: outside.length,
      suggested: most ? { ...weekDates(cohort.startDate, most.week), dateCount: most.dateCount } : null,
    };
  }

  /**
   * Dates outside the week are one warning, not one a row; when most are outside, the week
   * mismatch says it instead.
   */
  private warnings(): ImportWarning[] {
    const { meeting } = ready(this.reports, "readMeeting");
    const roster = ready(this.roster, "match");
    const plan = ready(this.plan, "plan");
    const weekEnd = plan.weekEnd;
    const outside = meeting.rows.filter((r) => r.date < plan.weekStart || r.date > weekEnd);
    const warnings: ImportWarning[] = [];
    const first = outside[0];
    if (first && outside.length * 2 <= meeting.rows.length) {
      const rows = outside.slice(0, 10).map((r) => r.row).join(", ");
      const more = outside.length > 10 ? ` and ${outside.length - 10} more` : "";
      warnings.push({
        type: "date_outside_week",
        message: `${outside.length} meeting ${outside.length === 1 ? "date" : "dates"} of ${meeting.file} ${outside.length === 1 ? "falls" : "fall"} outside week ${plan.week} (${plan.weekStart} to ${weekEnd}), row${outside.length === 1 ? "" : "s"} ${rows}${more}; imported as week ${plan.week}`,
        file: meeting.file,
        row: first.row,
      });
    }
    return [...warnings, ...roster.warnings];
  }
}
