import type { Kysely } from "kysely";
import type { Database } from "../src/db/schema.js";
import { buildAttendance, buildCohort, buildSchool, buildStudent } from "./factories.js";
import { importForm } from "./import-upload.js";

// Two students of Lincoln High in a six-week Spring cohort from 2026-03-02, and a week's three
// reports about them in which only their mentor meeting's status changes: the smallest import
// that moves attendance (the excused-import and the alert-trigger tests share it).

export interface KimAndLee {
  schoolId: number;
  cohort: number;
  kim: number;
  lee: number;
}

export async function buildKimAndLee(db: Kysely<Database>): Promise<KimAndLee> {
  const lincoln = await buildSchool(db, { name: "Lincoln High" });
  const cohort = await buildCohort(db, { name: "Spring", startDate: "2026-03-02", endDate: "2026-04-13", totalExpectedHours: 60 });
  const kim = await buildStudent(db, { schoolId: lincoln.id, firstName: "Kim", lastName: "Park", email: "kim@example.org", cohortIds: [cohort.id] });
  const lee = await buildStudent(db, { schoolId: lincoln.id, firstName: "Lee", lastName: "Chan", email: "lee@example.org", cohortIds: [cohort.id] });
  return { schoolId: lincoln.id, cohort: cohort.id, kim: kim.id, lee: lee.id };
}

const HEADER = "First Name,Last Name,Email,School,Meeting Date,Meeting Type,Status\n";
const PROGRESS = "Name,Email,Progress,Past Due Assessments,Assessments Without Due Dates\nKim Park,kim@example.org,50,0,0\n";
const REFLECTIONS =
  "User Name,Email,How many hours did you work this week?,How are you feeling? (rating 1-5),Describe your week\nKim Park,kim@example.org,5,4,Fine\n";

/** The week's import form: Kim's and Lee's mentor meeting on `date` with these statuses ("Absent", "Excused", …). */
export function kimAndLeeWeek(cohortId: number, week: number, date: string, kim: string, lee: string): FormData {
  return importForm(
    { cohortId, weekNumber: week },
    {
      attendanceReport: {
        name: "meetings.csv",
        bytes: `${HEADER}Kim,Park,kim@example.org,Lincoln High,${date},Mentor,${kim}\nLee,Chan,lee@example.org,Lincoln High,${date},Mentor,${lee}\n`,
      },
      progressReport: { name: "progress.csv", bytes: PROGRESS },
      reflectionReport: { name: "reflections.csv", bytes: REFLECTIONS },
    },
  );
}

/** The student's consecutive-misses alerts (one per episode), oldest first. */
export function missRuns(db: Kysely<Database>, studentId: number) {
  return db
    .selectFrom("alerts")
    .select(["id", "state", "level", "evidence", "raised_by_batch", "data_withdrawn", "condition_ended_at", "updated_at"])
    .where("student_id", "=", studentId)
    .where("rule", "=", "consecutive_misses")
    .orderBy("id")
    .execute();
}

/** Kim and Lee, who both missed week 1's mentor meeting (3 March): one more miss is a run of two. */
export async function buildKimAndLeeWhoMissedWeek1(db: Kysely<Database>): Promise<KimAndLee> {
  const ids = await buildKimAndLee(db);
  await buildAttendance(
    db,
    [ids.kim, ids.lee].map((studentId) => ({ studentId, cohortId: ids.cohort, schoolId: ids.schoolId, weekNumber: 1, date: "2026-03-03", meetingType: "mentor" as const, status: "absent" as const })),
  );
  return ids;
}
