import { rowsInFileOrder } from "../report-formats/report-reader.js";
import type { FlawedRow, MeetingRow, ParsedReport, ProgressRow, ReflectionRow, RowError, StudentKey } from "../report-formats/report-types.js";
import { chooseRow, type RowChoice, usedRowText } from "../report-formats/row-choice.js";
import { eachInTurns, loopTurns } from "../../lib/yield-to-loop.js";
import { normaliseEmail, normaliseName } from "../report-formats/student-names.js";

/** A student the database already has, as the import needs to see them. */
export interface KnownStudent {
  id: number;
  first_name: string;
  last_name: string;
  email: string | null;
  school_id: number | null;
  in_cohort: boolean;
  /** Newest team in the chosen cohort. */
  team_id: number | null;
}

export interface NamedRef {
  id: number;
  name: string;
}
export interface KnownTeam extends NamedRef {
  school_id: number;
}

/** Where a student's team in the cohort comes from: kept, an existing team, or one to create. */
export type TeamChoice = { kind: "keep" } | { kind: "none" } | { kind: "join"; teamId: number } | { kind: "create"; key: string; name: string; schoolId: number };

/** One student of the meeting report, with the rows of the three files that are theirs. */
export interface RosterStudent {
  existingId: number | null;
  fullName: string;
  firstName: string;
  lastName: string;
  email: string | null;
  schoolId: number;
  joinCohort: boolean;
  team: TeamChoice;
  /** The student's team in the cohort before the import (kept unless they had none). */
  keptTeamId: number | null;
  meetings: MeetingRow[];
  /** The student's rows of each platform report and the one used (none of a row with a bad value); null when not in it. */
  progress: RowChoice<ProgressRow> | null;
  reflection: RowChoice<ReflectionRow> | null;
}

export interface MatchProblem {
  studentId: number | null;
  /** The name the row gives ("First Last"). */
  studentName: string;
  type: "parse" | "ambiguous_student" | "unknown_school";
  error: RowError;
}
export interface MatchWarning {
  type: "duplicate_row" | "unmatched";
  message: string;
  file: string;
  row: number;
  studentId: number | null;
}

export interface Roster {
  students: RosterStudent[];
  problems: MatchProblem[];
  warnings: MatchWarning[];
}

export interface MatchInput {
  meeting: ParsedReport<MeetingRow>;
  progress: ParsedReport<ProgressRow>;
  reflection: ParsedReport<ReflectionRow>;
  known: KnownStudent[];
  schools: NamedRef[];
  /** The teams of the chosen cohort. */
  teams: KnownTeam[];
}

const fold = (text: string) => normaliseName(text);

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Finds each meeting row's student (report-formats.md, "Matching a row to a student"): the
 * product's id when the export carries one and it is the cohort's, then e-mail, then the
 * normalised name among the cohort's students; a name shared by two students is an error,
 * never a guess. Students the database does not have are new, at the school their row names.
 */
export async function matchRoster(input: MatchInput): Promise<Roster> {
  const problems: MatchProblem[] = [];
  const warnings: MatchWarning[] = [];
  const byId = new Map<number, KnownStudent>();
  const byEmail = new Map<string, KnownStudent>();
  const membersByName = new Map<string, KnownStudent[]>();
  await eachInTurns(input.known, (s) => {
    byId.set(s.id, s);
    const email = normaliseEmail(s.email);
    if (email) byEmail.set(email, s);
    if (s.in_cohort) pushTo(membersByName, fold(`${s.first_name} ${s.last_name}`), s);
  });
  const schoolsByName = new Map(input.schools.map((s) => [fold(s.name), s]));
  const teamsByKey = new Map(input.teams.map((t) => [`${t.school_id}|${fold(t.name)}`, t]));

  const roster = new Map<string, RosterStudent>();
  const newByName = new Map<string, string[]>();
  const meetingKeys = new Map<string, { student: RosterStudent; index: number; row: number }>();

  const problem = (type: MatchProblem["type"], row: StudentKey, column: string, value: string, text: string, studentId: number | null = null) =>
    problems.push({ studentId, studentName: row.fullName, type, error: { file: input.meeting.file, row: row.row, column, value, problem: text } });

  const turn = loopTurns();
  for (const row of input.meeting.rows) {
    if (turn.due()) await turn.yield();
    const email = normaliseEmail(row.email);
    const name = fold(row.fullName);
    let known: KnownStudent | undefined;
    const byOwnId = row.studentId === null ? undefined : byId.get(row.studentId);
    if (byOwnId && (byOwnId.in_cohort || (email !== null && normaliseEmail(byOwnId.email) === email))) known = byOwnId;
    if (!known && email) known = byEmail.get(email);
    if (!known) {
      // A member with another e-mail is another person of the same name.
      const sameName = (membersByName.get(name) ?? []).filter((s) => !email || !s.email);
      if (sameName.length > 1) {
        problem("ambiguous_student", row, "Name", row.fullName, `matches ${sameName.length} students of the cohort; add the e-mail to tell them apart`);
        continue;
      }
      known = sameName[0];
    }

    let key: string;
    if (known) key = `id:${known.id}`;
    else if (email) key = `email:${email}`;
    else {
      const named = newByName.get(name) ?? [];
      if (named.length > 1) {
        problem("ambiguous_student", row, "Name", row.fullName, "matches more than one new student of this report; add the e-mail to tell them apart");
        continue;
      }
      key = named[0] ?? `name:${name}`;
    }

    let student = roster.get(key);
    if (!student) {
      const made = startStudent(row, known, email, schoolsByName, teamsByKey);
      if ("problem" in made) {
        problem("unknown_school", row, "School", row.school ?? "", made.problem, known?.id ?? null);
        continue;
      }
      student = made.student;
      roster.set(key, student);
      if (!known) pushTo(newByName, name, key);
    }

    const meetingKey = `${key}|${row.date}|${row.meetingType}`;
    const earlier = meetingKeys.get(meetingKey);
    if (earlier) {
      warnings.push({
        type: "duplicate_row",
        message: `${input.meeting.file} row ${row.row}: a second ${row.meetingType} meeting of ${row.fullName} on ${row.date} (row ${earlier.row}); the later row is used`,
        file: input.meeting.file,
        row: row.row,
        studentId: student.existingId,
      });
      student.meetings[earlier.index] = row;
      meetingKeys.set(meetingKey, { ...earlier, row: row.row });
    } else {
      meetingKeys.set(meetingKey, { student, index: student.meetings.length, row: row.row });
      student.meetings.push(row);
    }
  }

  const students = [...roster.values()];
  await attachPlatformRows(students, input.progress, (s) => s.progress, (s, choice) => (s.progress = choice), problems, warnings);
  await attachPlatformRows(students, input.reflection, (s) => s.reflection, (s, choice) => (s.reflection = choice), problems, warnings);
  return { students, problems, warnings };
}

function startStudent(
  row: MeetingRow,
  known: KnownStudent | undefined,
  email: string | null,
  schoolsByName: Map<string, NamedRef>,
  teamsByKey: Map<string, KnownTeam>,
): { student: RosterStudent } | { problem: string } {
  const namedSchool = row.school ? schoolsByName.get(fold(row.school)) : undefined;
  const schoolId = known?.school_id ?? namedSchool?.id;
  if (schoolId === undefined) {
    return {
      problem: row.school
        ? "is not a school in Tally; add the school in Settings or correct the name"
        : "is empty; a new student needs their school",
    };
  }
  const joinCohort = !known?.in_cohort;
  let team: TeamChoice = { kind: "keep" };
  if (!known?.team_id) {
    const teamName = row.team?.trim();
    if (!teamName) team = { kind: "none" };
    else {
      const found = teamsByKey.get(`${schoolId}|${fold(teamName)}`);
      team = found ? { kind: "join", teamId: found.id } : { kind: "create", key: `${schoolId}|${fold(teamName)}`, name: teamName, schoolId };
    }
  }
  return {
    student: {
      existingId: known?.id ?? null,
      fullName: known ? `${known.first_name} ${known.last_name}` : row.fullName,
      firstName: known?.first_name ?? row.firstName,
      lastName: known?.last_name ?? row.lastName,
      email: known?.email ?? email,
      schoolId,
      joinCohort,
      team,
      keptTeamId: known?.team_id ?? null,
      meetings: [],
      progress: null,
      reflection: null,
    },
  };
}

/**
 * Gives each progress or reflection row to its roster student, a row with a bad value too (the
 * student is in that report, but none of that row's values is used: report-formats/row-choice.ts);
 * the rest are listed, not dropped. A student with several rows gets one warning saying which is used.
 */
async function attachPlatformRows<T extends StudentKey>(
  students: RosterStudent[],
  report: ParsedReport<T>,
  current: (student: RosterStudent) => RowChoice<T> | null,
  assign: (student: RosterStudent, choice: RowChoice<T>) => void,
  problems: MatchProblem[],
  warnings: MatchWarning[],
): Promise<void> {
  const flawed = new Set<FlawedRow<T>>(report.flawed);
  const byEmail = new Map<string, RosterStudent>();
  const byName = new Map<string, RosterStudent[]>();
  const turn = loopTurns();
  for (const s of students) {
    if (turn.due()) await turn.yield();
    const email = normaliseEmail(s.email);
    if (email) byEmail.set(email, s);
    pushTo(byName, fold(s.fullName), s);
  }
  const repeated = new Map<RosterStudent, string>();
  for (const row of rowsInFileOrder(report)) {
    if (turn.due()) await turn.yield();
    const email = normaliseEmail(row.email);
    let student = email ? byEmail.get(email) : undefined;
    if (!student) {
      const named = (byName.get(fold(row.fullName)) ?? []).filter((s) => !email || !s.email);
      if (named.length > 1) {
        problems.push({
          studentId: null,
          studentName: row.fullName,
          type: "ambiguous_student",
          error: { file: report.file, row: row.row, column: "Name", value: row.fullName, problem: `matches ${named.length} students of the meeting report; add the e-mail to tell them apart` },
        });
        continue;
      }
      student = named[0];
    }
    if (!student) {
      warnings.push({
        type: "unmatched",
        message: `${report.file} row ${row.row}: ${row.fullName} is not in the meeting attendance report; the row is not used`,
        file: report.file,
        row: row.row,
        studentId: null,
      });
      continue;
    }
    const choice = chooseRow(current(student), row, !flawed.has(row));
    assign(student, choice);
    if (choice.rows.length === 2) repeated.set(student, row.fullName);
  }
  // Said once the last row is in: a later whole row still takes over from an earlier one.
  for (const [student, name] of repeated) {
    const choice = current(student)!;
    warnings.push({
      type: "duplicate_row",
      message: `${report.file} rows ${choice.rows.join(", ")}: ${name} appears ${choice.rows.length} times; ${usedRowText(choice)}`,
      file: report.file,
      row: choice.rows[1]!,
      studentId: student.existingId,
    });
  }
}
