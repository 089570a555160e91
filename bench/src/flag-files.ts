import type { DatabaseHandle } from "@tally/server/db/connection";
import { addDays } from "@tally/server/lib/iso-date";

export interface FlagStudent {
  id: number;
  first_name: string;
  last_name: string;
  email: string | null;
}

export interface FlagFile {
  name: string;
  text: string;
}

/** The flag uploader's three multipart fields and their generated CSVs. */
export interface FlagFiles {
  progressReport: FlagFile;
  reflectionReport: FlagFile;
  attendanceReport: FlagFile;
}

/** The CRM's statuses, in the mix a real week shows: mostly attended, some absences and gaps. */
const STATUSES = ["Completed", "Completed", "Completed", "Completed", "Completed", "Absent", "Excused", "Enrolled"] as const;
const SESSIONS = ["Workshop", "Site Visit", "Coaching"] as const;

/** The first `count` students of the cohort by id, with the names and e-mails the files carry. */
export async function pickFlagStudents(database: DatabaseHandle, cohortId: number, count: number): Promise<FlagStudent[]> {
  return database.db
    .selectFrom("students as s")
    .innerJoin("student_cohorts as sc", "sc.student_id", "s.id")
    .select(["s.id", "s.first_name", "s.last_name", "s.email"])
    .where("sc.cohort_id", "=", cohortId)
    .orderBy("s.id")
    .limit(count)
    .execute();
}

/** The Benefit Assignment ID the generated CRM report gives a student: unique per student. */
export const benefitIdOf = (studentId: number) => `BENCH-BA-${studentId}`;

/**
 * Progress, reflection and CRM reports naming every student once (the CRM three times: one row
 * per session), values spread from a hash of the student's id so every flag rule fires for
 * some students and none for others. weekStart is the week's first day (ISO).
 */
export function generateFlagFiles(students: readonly FlagStudent[], weekStart: string): FlagFiles {
  const progress = [["Name", "Email", "Team", "Progress", "Past Due Assessments", "Assessments Without Due Dates"]];
  const reflection = [
    [
      "User Name",
      "Email",
      "How many hours did you work this week?",
      "On a scale of 1-5, how are you feeling about your placement?",
      "Please reflect on your week",
      "Submitted",
    ],
  ];
  const crm = [["Enrollee Name", "Enrollee Email", "Benefit Assignment ID", "Benefit Session", "Session Date", "Disbursement Status"]];
  for (const s of students) {
    const h = hash(s.id);
    const name = `${s.first_name} ${s.last_name}`;
    const email = s.email ?? "";
    progress.push([name, email, "", `${h % 101}%`, String(h % 7 === 0 ? (h % 3) + 1 : 0), String(h % 4)]);
    reflection.push([name, email, String(((h >>> 3) % 20) + 1), String(((h >>> 5) % 5) + 1), `Week of ${name}: worked on the project.`, weekStart]);
    SESSIONS.forEach((session, i) => {
      const status = STATUSES[(h >>> (7 + 3 * i)) % STATUSES.length] ?? "Completed";
      crm.push([name, email, benefitIdOf(s.id), `Week ${session}`, addDays(weekStart, i * 2), status]);
    });
  }
  return {
    progressReport: { name: "bench-progress.csv", text: toCsv(progress) },
    reflectionReport: { name: "bench-reflection.csv", text: toCsv(reflection) },
    attendanceReport: { name: "bench-crm-attendance.csv", text: toCsv(crm) },
  };
}

const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

function toCsv(rows: readonly string[][]): string {
  return `${rows.map((r) => r.map(cell).join(",")).join("\r\n")}\r\n`;
}

// A small integer hash (xorshift-multiply): stable across runs, so every run sends the same files.
function hash(n: number): number {
  let x = (n ^ 0x9e3779b9) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

