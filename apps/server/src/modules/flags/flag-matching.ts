import type { FlagRowError, FlagUnmatchedRow } from "@tally/contract";
import type { FlagRunRow } from "../../db/schema.js";
import { loopTurns } from "../../lib/yield-to-loop.js";
import { calculateFlags } from "../report-formats/flag-rules.js";
import { rowsInFileOrder } from "../report-formats/report-reader.js";
import type { CrmRow, FlawedRow, ParsedReport, ProgressRow, ReflectionRow, StudentKey } from "../report-formats/report-types.js";
import { normaliseEmail, normaliseName } from "../report-formats/student-names.js";
import { describeRowErrors, type FlagReports, type RowOwner } from "./flag-row-errors.js";

/** A student of the chosen cohort, as the flag uploader matches them. */
export interface CohortStudent {
  id: number;
  first_name: string;
  last_name: string;
  email: string | null;
  benefit_assignment_id: string | null;
}

export interface FlagWeek {
  week: number;
  weekCount: number;
  totalExpectedHours: number | null;
}

export interface FlagRunResult {
  rows: FlagRunRow[];
  unmatched: FlagUnmatchedRow[];
  /** The first FLAG_ROW_ERRORS_LISTED row errors of the three reports, with their students. */
  rowErrors: FlagRowError[];
  rowErrorCount: number;
}

interface Enrollee {
  benefitAssignmentId: string;
  first: FlawedRow<CrmRow>;
  /** The first name and e-mail any of its rows gives: a row may leave the name out ("" then). */
  fullName: string;
  email: string | null;
  absent: number;
  enrolled: number;
  /** Its rows with a bad value, to name the student in their errors. */
  flawed: FlawedRow<CrmRow>[];
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const unmatchedRow = (file: string, row: Pick<StudentKey, "row" | "fullName" | "email">, reason: string): FlagUnmatchedRow => ({
  file,
  row: row.row,
  name: row.fullName,
  email: row.email,
  reason,
});

const ownerOf = (s: CohortStudent): RowOwner => ({ id: s.id, name: `${s.first_name} ${s.last_name}` });

/**
 * Matches each CRM enrollee to a student of the cohort (report-formats.md, rule 4: Benefit
 * Assignment ID, then e-mail, then name; a shared name is never a guess), gives each the
 * progress and reflection rows that are theirs, and calculates the flags. Every row that
 * finds no student is listed with the reason. A row with a bad value counts for what it does
 * say: a value that could not be read decides no flag, a CRM row without a Benefit Assignment
 * ID counts for nobody, one without a name is matched by its ID (then e-mail).
 */
export async function calculateFlagRun(students: readonly CohortStudent[], week: FlagWeek, reports: FlagReports): Promise<FlagRunResult> {
  const unmatched: FlagUnmatchedRow[] = [];
  const enrollees = new Map<string, Enrollee>();
  const flawedCrm = new Set<object>(reports.crm.flawed);
  const withoutId: FlawedRow<CrmRow>[] = [];
  for (const row of rowsInFileOrder(reports.crm)) {
    const id = row.benefitAssignmentId;
    if (id === null) {
      withoutId.push(row);
      continue;
    }
    let e = enrollees.get(id);
    if (!e) {
      e = { benefitAssignmentId: id, first: row, fullName: row.fullName, email: row.email, absent: 0, enrolled: 0, flawed: [] };
      enrollees.set(id, e);
    }
    if (e.fullName === "") e.fullName = row.fullName;
    e.email ??= row.email;
    if (row.status === "absent") e.absent++;
    if (row.status === "enrolled") e.enrolled++;
    if (flawedCrm.has(row)) e.flawed.push(row);
  }

  const turn = loopTurns();
  const byBenefit = new Map<string, CohortStudent>();
  const byEmail = new Map<string, CohortStudent>();
  const byName = new Map<string, CohortStudent[]>();
  for (const s of students) {
    if (turn.due()) await turn.yield();
    if (s.benefit_assignment_id) byBenefit.set(s.benefit_assignment_id, s);
    const email = normaliseEmail(s.email);
    if (email) byEmail.set(email, s);
    pushTo(byName, normaliseName(`${s.first_name} ${s.last_name}`), s);
  }

  interface Matched {
    student: CohortStudent;
    enrollee: Enrollee;
    matchedBy: FlagRunRow["matchedBy"];
    progress: FlawedRow<ProgressRow> | null;
    reflection: FlawedRow<ReflectionRow> | null;
  }
  const owners = new Map<object, RowOwner>();
  const flawedPlatform = new Set<object>([...reports.progress.flawed, ...reports.reflection.flawed]);
  const matched = new Map<number, Matched>();
  for (const enrollee of enrollees.values()) {
    if (turn.due()) await turn.yield();
    const row = { row: enrollee.first.row, fullName: enrollee.fullName, email: enrollee.email };
    let student = byBenefit.get(enrollee.benefitAssignmentId);
    let matchedBy: FlagRunRow["matchedBy"] = "benefit_assignment_id";
    const email = normaliseEmail(row.email);
    if (!student && email) {
      student = byEmail.get(email);
      matchedBy = "email";
    }
    if (!student && row.fullName !== "") {
      const named = (byName.get(normaliseName(row.fullName)) ?? []).filter((s) => !email || !s.email);
      if (named.length > 1) {
        unmatched.push(unmatchedRow(reports.crm.file, row, `in the CRM report; the name matches ${named.length} students of this cohort`));
        continue;
      }
      student = named[0];
      matchedBy = "name";
    }
    if (!student) {
      const reason =
        row.fullName === ""
          ? `in the CRM report without a name, and no student of this cohort has its Benefit Assignment ID (${enrollee.benefitAssignmentId})${email ? " or e-mail" : ""}`
          : "in the CRM report but not in this cohort";
      unmatched.push(unmatchedRow(reports.crm.file, row, reason));
      continue;
    }
    if (matched.has(student.id)) {
      unmatched.push(unmatchedRow(reports.crm.file, row, `in the CRM report under a second Benefit Assignment ID (${enrollee.benefitAssignmentId}) for the same student`));
      continue;
    }
    matched.set(student.id, { student, enrollee, matchedBy, progress: null, reflection: null });
    for (const flawedRow of enrollee.flawed) owners.set(flawedRow, ownerOf(student));
  }
  // Counted for nobody, but the coordinator is told whose session it was where the row says.
  for (const row of withoutId) {
    const email = normaliseEmail(row.email);
    const named = byName.get(normaliseName(row.fullName)) ?? [];
    const student = (email ? byEmail.get(email) : undefined) ?? (named.length === 1 ? named[0] : undefined);
    if (student) owners.set(row, ownerOf(student));
  }

  const roster = [...matched.values()];
  const rosterByEmail = new Map<string, Matched>();
  const rosterByName = new Map<string, Matched[]>();
  for (const m of roster) {
    for (const e of [normaliseEmail(m.student.email), normaliseEmail(m.enrollee.email)]) if (e) rosterByEmail.set(e, m);
    pushTo(rosterByName, normaliseName(`${m.student.first_name} ${m.student.last_name}`), m);
  }
  const attach = async <T extends StudentKey>(report: ParsedReport<T>, label: string, assign: (m: Matched, row: T | FlawedRow<T>) => void) => {
    for (const row of rowsInFileOrder(report)) {
      if (turn.due()) await turn.yield();
      const email = normaliseEmail(row.email);
      let m = email ? rosterByEmail.get(email) : undefined;
      if (!m) {
        const named = rosterByName.get(normaliseName(row.fullName)) ?? [];
        if (named.length > 1) {
          unmatched.push(unmatchedRow(report.file, row, `in the ${label}; the name matches ${named.length} students of the CRM report`));
          continue;
        }
        m = named[0];
      }
      if (m) {
        assign(m, row);
        if (flawedPlatform.has(row)) owners.set(row, ownerOf(m.student));
      } else unmatched.push(unmatchedRow(report.file, row, `in the ${label} but not in the CRM report`));
    }
  };
  await attach(reports.progress, "progress report", (m, row) => (m.progress = row));
  await attach(reports.reflection, "reflection report", (m, row) => (m.reflection = row));

  const rows: FlagRunRow[] = [];
  for (const m of roster) {
    if (turn.due()) await turn.yield();
    const flags = calculateFlags({
      ...week,
      inPlatformSource: true,
      progress: m.progress ? { progress: m.progress.progress, pastDue: m.progress.pastDue } : null,
      reflection: m.reflection ? { hours: m.reflection.hours, rating: m.reflection.rating } : null,
      crm: { absent: m.enrollee.absent, enrolled: m.enrollee.enrolled },
    });
    rows.push({
      studentId: m.student.id,
      name: `${m.student.first_name} ${m.student.last_name}`,
      benefit_assignment_id: m.enrollee.benefitAssignmentId,
      flags: flags.map((f) => ({ code: f.code, text: f.text })),
      matchedBy: m.matchedBy,
      crmEnrolled: m.enrollee.enrolled,
    });
  }
  const { listed, count } = describeRowErrors(reports, owners);
  return { rows, unmatched, rowErrors: listed, rowErrorCount: count };
}
