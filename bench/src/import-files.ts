import type { DatabaseHandle } from "@tally/server/db/connection";
import { FIRST_NAMES, LAST_NAMES } from "@tally/server/db/seed/demo-words";
import { addDays } from "@tally/server/lib/iso-date";

/** One student of the generated week, as the three reports name them. */
export interface ImportStudent {
  firstName: string;
  lastName: string;
  /** Written in every report; null leaves the e-mail cells empty, so the row is matched by name. */
  email: string | null;
  school: string;
  team: string;
}

/** The three uploads, under the multipart field names of the import form. */
export interface ImportFiles {
  attendanceReport: { name: string; text: string };
  progressReport: { name: string; text: string };
  reflectionReport: { name: string; text: string };
}

export interface ImportWeek {
  /** ISO date of the week's first day (the cohort's start + 7·(week − 1)). */
  start: string;
}

/** A well-mixed integer in [0, mod) from (i, salt): the same files on every run. */
function hash(i: number, salt: number, mod: number): number {
  let h = Math.imul(i ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) % mod;
}


const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Mostly ISO, some "2 Mar 2026": two of the accepted forms, never an ambiguous numeric one. */
function dateCell(iso: string, i: number): string {
  if (hash(i, 40, 10) !== 0) return iso;
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

/** RFC 4180: quoted only when needed, as spreadsheet exports do. */
function cell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** CRLF line endings, as Excel and the learning platform write them. */
function csv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const lines = [header.map(cell).join(",")];
  for (const row of rows) lines.push(row.map(cell).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

function status(i: number, meeting: number): string {
  const r = hash(i, 10 + meeting, 100);
  if (r < 86) return hash(i, 20 + meeting, 8) === 0 ? "P" : "Present";
  if (r < 93) return hash(i, 30 + meeting, 4) === 0 ? "Tardy" : "Late";
  return hash(i, 30 + meeting, 5) === 0 ? "Excused" : "Absent";
}

const NOTES = [
  "Great progress on the project brief, keep it up.",
  "Talked about time management; check in again next week.",
  'Asked about the "client pitch", will bring notes, questions and a draft.',
  "Missed the bus twice this week.\nAgreed on an earlier start.",
];

const REFLECTIONS = [
  "This week I finished the survey analysis and presented it to my team.",
  "I learned how to run a stand-up meeting, which was harder than it looks.",
  'Honestly it was hard to get there on time because the bus changed routes, "but" I managed.',
  "We built a prototype of the sign-up form.\nNext week I want to test it with real users.",
  "I shadowed my mentor in client calls, took notes, and wrote the follow-up e-mails.",
];

/**
 * The meeting attendance report (two rows per student: mentor and advisor, dated inside the
 * week), the progress report and the reflection report for these students. Values come from a
 * hash of the student's position, so the same students give the same bytes. Some cells use the
 * messier accepted shapes (P/Tardy/Excused, "2 Mar 2026", "45%", "Last, First", quoted commas and
 * line breaks) so the bench parses what real exports hold, not only the easy path.
 */
export function generateImportFiles(students: readonly ImportStudent[], week: ImportWeek): ImportFiles {
  const meetings: string[][] = [];
  const progress: string[][] = [];
  const reflections: string[][] = [];
  students.forEach((s, i) => {
    const email = s.email ?? "";
    const mentorDate = addDays(week.start, 1 + hash(i, 1, 2));
    const advisorDate = addDays(week.start, 3 + hash(i, 2, 2));
    const note = hash(i, 3, 4) === 0 ? (NOTES[hash(i, 4, NOTES.length)] ?? "") : "";
    meetings.push([s.firstName, s.lastName, email, s.school, s.team, dateCell(mentorDate, i), "Mentor", status(i, 0), ""]);
    meetings.push([s.firstName, s.lastName, email, s.school, s.team, dateCell(advisorDate, i + 1), "Advisor Check-in", status(i, 1), note]);

    const name = hash(i, 5, 10) === 0 ? `${s.lastName}, ${s.firstName}` : `${s.firstName} ${s.lastName}`;
    const pct = hash(i, 6, 100) < 8 ? hash(i, 7, 12) : 15 + hash(i, 8, 60);
    const pctCell = hash(i, 9, 5) === 0 ? `${pct}%` : String(pct);
    const pastDue = hash(i, 11, 100) < 12 ? 1 + hash(i, 12, 3) : 0;
    progress.push([name, email, s.team, pctCell, String(pastDue), String(hash(i, 13, 4))]);

    const hours = hash(i, 14, 100) < 6 ? hash(i, 15, 12) / 2 : 8 + hash(i, 16, 25) / 2;
    const rating = hash(i, 17, 100) < 5 ? 1 + hash(i, 18, 2) : 3 + hash(i, 19, 3);
    const text = hash(i, 20, 100) < 4 ? "" : (REFLECTIONS[hash(i, 21, REFLECTIONS.length)] ?? "");
    reflections.push([`${s.firstName} ${s.lastName}`, email, String(hours), String(rating), text, dateCell(addDays(week.start, 5), i)]);
  });
  return {
    attendanceReport: {
      name: "meeting-attendance.csv",
      text: csv(["First Name", "Last Name", "Email", "School", "Team", "Meeting Date", "Meeting Type", "Status", "Advisor Notes"], meetings),
    },
    progressReport: {
      name: "progress.csv",
      text: csv(["Name", "Email", "Team", "Progress", "Past Due Assessments", "Assessments Without Due Dates"], progress),
    },
    reflectionReport: {
      name: "reflections.csv",
      text: csv(
        [
          "User Name",
          "Email",
          "How many hours did you work at your placement this week?",
          "On a scale of 1-5, how are you feeling about your placement?",
          "Describe one thing you learned this week",
          "Submitted",
        ],
        reflections,
      ),
    },
  };
}

export interface PickOptions {
  /** Students in the files. */
  total: number;
  /** Of them, students new to the database (created by the commit with a school of the set). */
  newStudents: number;
  /** Of the new students, how many have no e-mail (a later import finds them by name). */
  newWithoutEmail: number;
  /**
   * The cohort the files are imported into when it exists: existing students are taken from it,
   * and a share of them is written without e-mail (matched by name; only names unique in the
   * cohort, or the match would rightly be ambiguous). Without one (a new cohort), existing
   * students come from the whole large set and are all matched by e-mail.
   */
  cohortId?: number | undefined;
  /** Share of the existing students written without e-mail, when cohortId is given. */
  byNameShare?: number;
}

// Double-barrelled surnames: the large set never uses one, so a new student's name is never
// taken by an existing student of the cohort (which would make matching by name ambiguous).
const NEW_LAST_NAMES = LAST_NAMES.flatMap((a, i) => LAST_NAMES.filter((_, j) => j !== i).map((b) => `${a}-${b}`));

/** A name as matching compares it (report-formats.md): accents stripped, case and spaces folded. */
function nameKey(first: string, last: string): string {
  return `${first} ${last}`
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The students of the generated week: existing students of the bench set (in a stable order)
 * and new ones spread over the set's schools, each with a team name of the week's layout.
 */
export async function pickImportStudents(database: DatabaseHandle, opts: PickOptions): Promise<ImportStudent[]> {
  const db = database.db;
  const existingCount = opts.total - opts.newStudents;
  const base = db
    .selectFrom("students as s")
    .innerJoin("schools as sc", "sc.id", "s.school_id")
    .select(["s.id", "s.first_name", "s.last_name", "s.email", "sc.name as school"])
    .where("s.email", "like", "%@synthetic.tally.demo");
  const existing = await (opts.cohortId === undefined
    ? base
    : base.where((eb) => eb.exists(eb.selectFrom("student_cohorts as m").whereRef("m.student_id", "=", "s.id").where("m.cohort_id", "=", opts.cohortId ?? 0)))
  )
    .orderBy("s.id")
    .limit(existingCount)
    .execute();
  if (existing.length < existingCount) {
    throw new Error(`the bench set has ${existing.length} students to pick from, ${existingCount} wanted`);
  }
  const uniqueNames = new Set<string>();
  if (opts.cohortId !== undefined && (opts.byNameShare ?? 0) > 0) {
    const rows = await db
      .selectFrom("students as s")
      .innerJoin("student_cohorts as m", "m.student_id", "s.id")
      .select(["s.first_name", "s.last_name"])
      .where("m.cohort_id", "=", opts.cohortId)
      .execute();
    const seen = new Map<string, number>();
    for (const r of rows) {
      const key = nameKey(r.first_name, r.last_name);
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    for (const [key, n] of seen) if (n === 1) uniqueNames.add(key);
  }
  const schools = [...new Set(existing.map((s) => s.school))].sort();
  const teamOf = (i: number, school: string) => `Import Team ${1 + (hash(i, 50, 1_000_000) % 20)} ${school.split(" ")[0]}`;
  const byNameEvery = opts.byNameShare ? Math.max(1, Math.round(1 / opts.byNameShare)) : 0;
  const students: ImportStudent[] = existing.map((s, i) => {
    const byName = byNameEvery > 0 && i % byNameEvery === 0 && uniqueNames.has(nameKey(s.first_name, s.last_name));
    return { firstName: s.first_name, lastName: s.last_name, email: byName ? null : s.email, school: s.school, team: teamOf(i, s.school) };
  });
  for (let k = 0; k < opts.newStudents; k++) {
    const i = existing.length + k;
    const school = schools[k % schools.length] ?? "";
    const firstName = FIRST_NAMES[k % FIRST_NAMES.length] ?? "Sam";
    const lastName = NEW_LAST_NAMES[Math.floor(k / FIRST_NAMES.length) % NEW_LAST_NAMES.length] ?? "Doe-Roe";
    const plain = `${firstName}.${lastName}`.normalize("NFD").replace(/[^a-zA-Z.-]/g, "").toLowerCase();
    const email = k < opts.newWithoutEmail ? null : `${plain}.${k}@import.bench.tally.test`;
    students.push({ firstName, lastName, email, school, team: teamOf(i, school) });
  }
  return students;
}
