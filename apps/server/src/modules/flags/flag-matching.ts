import type { FlagRowError, FlagUnmatchedRow, ReportRowChoice } from "@tally/contract";
import type { FlagRunRow } from "../../db/schema.js";
import { loopTurns } from "../../lib/yield-to-loop.js";
import { calculateFlags } from "../report-formats/flag-rules.js";
import { rowsInFileOrder } from "../report-formats/report-reader.js";
import type { CrmRow, FlawedRow, ParsedReport, ProgressRow, ReflectionRow, StudentKey } from "../report-formats/report-types.js";
import { chooseRow, progressFacts, reflectionFacts, type RowChoice, rowChoiceOf } from "../report-formats/row-choice.js";
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
  /** By student: the row used of a report with several rows for them (none when each had one). */
  rowsUsed: Map<number, ReportRowChoice[]>;
}

interface Enrollee {
  benefitAssignmentId: string;
  first: FlawedRow<CrmRow>;
  /** The first name and e-mail any of its rows gives: a row may leave the name out ("" then). */
  fullName: string;
  email: string | null;
  /** Its whole rows that are Absent, and still Enrolled: a row with a bad value counts for neither. */
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
 * finds no student is listed with the reason. A row with a bad value is skipped whole (issue
 * 41.12): none of its values counts, and a progress or reflection row of the same student
 * without one is used instead (report-formats/row-choice.ts); it still places its student in
 * that report. A CRM row without a Benefit Assignment ID belongs to nobody; one without a
 * name is matched by its ID (then e-mail).
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
    if (flawedCrm.has(row)) e.flawed.push(row);
    else if (row.status === "absent") e.absent++;
    else if (row.status === "enrolled") e.enrolled++;
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
    progress: RowChoice<ProgressRow> | null;
    reflection: RowChoice<ReflectionRow> | null;
  }
  const owners = new Map<object, RowOwner>();
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
  const attach = async <T extends StudentKey>(
    report: ParsedReport<T>,
    label: string,
    current: (m: Matched) => RowChoice<T> | null,
    assign: (m: Matched, choice: RowChoice<T>) => void,
  ) => {
    const flawed = new Set<FlawedRow<T>>(report.flawed);
    const flawedOf: Array<[FlawedRow<T>, Matched]> = [];
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
        const whole = !flawed.has(row);
        assign(m, chooseRow(current(m), row, whole));
        if (!whole) flawedOf.push([row, m]);
      } else unmatched.push(unmatchedRow(report.file, row, `in the ${label} but not in the CRM report`));
    }
    // Once every row is in: a whole row after the bad one is used instead of it too.
    for (const [row, m] of flawedOf) owners.set(row, { ...ownerOf(m.student), usedRow: current(m)?.used?.row ?? null });
  };
  await attach(reports.progress, "progress report", (m) => m.progress, (m, choice) => (m.progress = choice));
  await attach(reports.reflection, "reflection report", (m) => m.reflection, (m, choice) => (m.reflection = choice));

  const rows: FlagRunRow[] = [];
  const rowsUsed = new Map<number, ReportRowChoice[]>();
  for (const m of roster) {
    if (turn.due()) await turn.yield();
    const flags = calculateFlags({
      ...week,
      inPlatformSource: true,
      progress: progressFacts(m.progress),
      reflection: reflectionFacts(m.reflection),
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
    const used = [rowChoiceOf(reports.progress.file, m.progress), rowChoiceOf(reports.reflection.file, m.reflection)].filter((c) => c !== undefined);
    if (used.length > 0) rowsUsed.set(m.student.id, used);
  }
  const { listed, count } = describeRowErrors(reports, owners);
  return { rows, unmatched, rowErrors: listed, rowErrorCount: count, rowsUsed };
}
