import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import { idArray } from "../../db/json-rows.js";
import { loopTurns } from "../../lib/yield-to-loop.js";
import type { WeeklyFlag } from "../../db/schema.js";
import type { MeetingFact, WeekFact } from "./rules/rule-facts.js";

// The facts the rules judge, read per cohort with a few set-based queries (never per student).

export interface CohortRow {
  id: number;
  start_date: string;
  end_date: string;
  total_expected_hours: number | null;
}

/** Cohorts running on `today` or ended on or after `endedSince` (both YYYY-MM-DD). */
export async function findCohortsToEvaluate(db: DbExecutor, today: string, endedSince: string): Promise<number[]> {
  const rows = await db
    .selectFrom("cohorts")
    .select("id")
    .where("start_date", "<=", today)
    .where("end_date", ">=", endedSince)
    .orderBy("id")
    .execute();
  return rows.map((r) => r.id);
}

export async function findCohort(db: DbExecutor, cohortId: number): Promise<CohortRow | undefined> {
  return db
    .selectFrom("cohorts")
    .select(["id", "start_date", "end_date", "total_expected_hours"])
    .where("id", "=", cohortId)
    .executeTakeFirst();
}

export async function findMemberIds(db: DbExecutor, cohortId: number): Promise<number[]> {
  const rows = await db.selectFrom("student_cohorts").select("student_id").where("cohort_id", "=", cohortId).orderBy("student_id").execute();
  return rows.map((r) => r.student_id);
}

// The facts come back as a few texts, not as rows of fields: the embedded engine decodes a
// result field by field, and a cohort's 250,000 attendance rows took seconds that way (a fifth
// of that as text). Nothing is ordered in SQL (a sort there cost more than reading the rows);
// each student's few records are sorted here. The id list is one array parameter, so the
// statement's text stays the same for every slice and is prepared once.

const MEETING_TYPES = { m: "mentor", a: "advisor" } as const;
const STATUSES = { p: "present", l: "late", a: "absent" } as const;
/** Between the records of one text: a control character, which JSON text always escapes. */
const RECORD = "\x1e";

const byDateMentorFirst = (a: MeetingFact, b: MeetingFact) =>
  a.date < b.date ? -1 : a.date > b.date ? 1 : a.meetingType === b.meetingType ? 0 : a.meetingType === "mentor" ? -1 : 1;

/** The cohort's attendance records of these students, each student's by date, then mentor before advisor. */
export async function findMeetings(db: DbExecutor, cohortId: number, studentIds: readonly number[]): Promise<Map<number, MeetingFact[]>> {
  const byStudent = new Map<number, MeetingFact[]>();
  if (studentIds.length === 0) return byStudent;
  // Per record: YYYY-MM-DD, m|a, p|l|a, 1|0 (excused), then the week number.
  const { rows } = await sql<{ student_id: number; packed: string }>`
    select student_id, string_agg(date::text || left(meeting_type, 1) || left(status, 1) || excused::int || week_number, ${RECORD}) as packed
    from attendance_records
    where student_id = any(${idArray(studentIds)}) and cohort_id = ${cohortId}
    group by student_id`.execute(db);
  // Decoded in turns: a slice's 20,000 records at once held the event loop 20-40 ms.
  const turn = loopTurns();
  const dates = new DateTexts();
  for (const row of rows) {
    if (turn.due()) await turn.yield();
    byStudent.set(row.student_id, decodeMeetings(row.packed, dates).sort(byDateMentorFirst));
  }
  return byStudent;
}

/**
 * The cohort's few dates, one string each, looked up by their digits: a slice holds 20,000
 * records on some 30 dates, and a string per record (its text, its date) was most of what the
 * decoding left to the garbage collector.
 */
class DateTexts {
  #byDigits = new Map<number, string>();
  at(text: string, i: number): string {
    let key = 0;
    for (const j of DATE_DIGITS) key = key * 10 + text.charCodeAt(i + j) - 48;
    let date = this.#byDigits.get(key);
    if (date === undefined) {
      date = text.slice(i, i + 10);
      this.#byDigits.set(key, date);
    }
    return date;
  }
}
/** Where the digits of YYYY-MM-DD are. */
const DATE_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9];

/** One student's packed records, read in place (no string per record). */
function decodeMeetings(packed: string, dates: DateTexts): MeetingFact[] {
  const meetings: MeetingFact[] = [];
  let i = 0;
  while (i < packed.length) {
    const end = packed.indexOf(RECORD, i);
    const stop = end === -1 ? packed.length : end;
    let week = 0;
    for (let j = i + 13; j < stop; j++) week = week * 10 + packed.charCodeAt(j) - 48;
    meetings.push({
      date: dates.at(packed, i),
      meetingType: MEETING_TYPES[packed[i + 10] as "m" | "a"],
      status: STATUSES[packed[i + 11] as "p" | "l" | "a"],
      excused: packed[i + 12] === "1",
      week,
    });
    i = stop + 1;
  }
  return meetings;
}

/** The cohort's weekly rows of these students, each student's by week. */
export async function findWeeks(db: DbExecutor, cohortId: number, studentIds: readonly number[]): Promise<Map<number, WeekFact[]>> {
  const byStudent = new Map<number, WeekFact[]>();
  if (studentIds.length === 0) return byStudent;
  // Per record: week,hours,flags as JSON text ([] for most rows: parsed only when not).
  const { rows } = await sql<{ student_id: number; packed: string }>`
    select student_id, string_agg(week_number || ',' || coalesce(hours_reported::text, '') || ',' || flags::text, ${RECORD}) as packed
    from weekly_data
    where student_id = any(${idArray(studentIds)}) and cohort_id = ${cohortId}
    group by student_id`.execute(db);
  const turn = loopTurns();
  for (const row of rows) {
    if (turn.due()) await turn.yield();
    const weeks = row.packed.split(RECORD).map((r): WeekFact => {
      const a = r.indexOf(",");
      const b = r.indexOf(",", a + 1);
      const hours = r.slice(a + 1, b);
      const flags = r.slice(b + 1);
      return { week: Number(r.slice(0, a)), hoursReported: hours === "" ? null : Number(hours), flags: flags === "[]" ? [] : (JSON.parse(flags) as WeeklyFlag[]) };
    });
    byStudent.set(row.student_id, weeks.sort((x, y) => x.week - y.week));
  }
  return byStudent;
}

/** The latest week with an attendance record or a weekly row in the cohort (null: none yet). */
export async function findLatestWeek(db: DbExecutor, cohortId: number): Promise<number | null> {
  const [attendance, weekly] = await Promise.all([
    db
      .selectFrom("attendance_summary")
      .select((eb) => eb.fn.max("week_number").as("week"))
      .where("cohort_id", "=", cohortId)
      .where((eb) => eb(eb(eb("present", "+", eb.ref("late")), "+", eb.ref("absent")), ">", 0))
      .executeTakeFirst(),
    db.selectFrom("weekly_data").select((eb) => eb.fn.max("week_number").as("week")).where("cohort_id", "=", cohortId).executeTakeFirst(),
  ]);
  const weeks = [attendance?.week, weekly?.week].filter((w): w is number => w !== null && w !== undefined).map(Number);
  return weeks.length === 0 ? null : Math.max(...weeks);
}
