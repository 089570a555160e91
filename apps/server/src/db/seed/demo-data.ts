import { cohortWeekCount, dayAfterWeek, DEMO_COHORT_ID, DEMO_SCHOOL_ID, flag, weekFirstDay } from "@tally/contract";
import type { Insertable } from "kysely";
import type {
  AttendanceRecordsTable,
  AttendanceStatus,
  CohortsTable,
  MeetingType,
  SchoolsTable,
  StudentCohortsTable,
  StudentsTable,
  StudentTeamsTable,
  TeamsTable,
  WeeklyDataTable,
  WeeklyFlag,
} from "../schema.js";
import { addDays } from "../../lib/iso-date.js";
import * as words from "./demo-words.js";
import { mulberry32, type Random } from "./prng.js";

/** Rows with explicit ids, ready to insert into an empty database. */
export interface DemoData {
  schools: Array<Insertable<SchoolsTable> & { id: number }>;
  cohorts: Array<Insertable<CohortsTable> & { id: number }>;
  teams: Array<Insertable<TeamsTable> & { id: number }>;
  students: Array<Insertable<StudentsTable> & { id: number }>;
  studentCohorts: Insertable<StudentCohortsTable>[];
  studentTeams: Insertable<StudentTeamsTable>[];
  attendance: Insertable<AttendanceRecordsTable>[];
  weeklyData: Insertable<WeeklyDataTable>[];
  districts: Array<{ name: string; schoolIds: number[] }>;
}

/** Share of meetings attended on time, per school: some schools do better than others. */
const DISTRICTS = [
  {
    name: "Northgate Unified School District",
    schools: [
      ["Northgate High School", 0.95],
      ["Cedar Ridge High School", 0.92],
      ["Jefferson Academy", 0.88],
      ["Maplewood Career Academy", 0.93],
    ],
  },
  {
    name: "Riverbend County Schools",
    schools: [
      ["Riverbend High School", 0.9],
      ["Eastside STEM Academy", 0.96],
      ["César Chávez High School", 0.92],
      ["Oak Valley High School", 0.89],
    ],
  },
  {
    name: "Lakeshore Public Schools",
    schools: [
      ["Lakeshore High School", 0.94],
      ["Harbor View Academy", 0.91],
      ["Pinecrest High School", 0.93],
      ["Westfield Technical High School", 0.91],
    ],
  },
] as const;

const DEMO_SCHOOL = { name: "Demo High School", district: "Demo District", presentRate: 0.92 };

// Cohorts 1 and 3 do not overlap, so a student can take part in both.
const COHORTS = [
  { id: 1, name: "Winter 2026 Projects", program_type: "Projects", start_date: "2026-01-12", end_date: "2026-03-08", total_expected_hours: 80 },
  { id: 2, name: "Spring 2026 Internship", program_type: "Internship (8 week)", start_date: "2026-02-02", end_date: "2026-03-29", total_expected_hours: 160 },
  { id: 3, name: "Spring 2026 Short Internship", program_type: "Internship (6 week)", start_date: "2026-03-16", end_date: "2026-04-26", total_expected_hours: 120 },
  { id: DEMO_COHORT_ID, name: "Demo Cohort 2026", program_type: "Internship (8 week)", start_date: "2026-02-02", end_date: "2026-03-29", total_expected_hours: 160 },
] as const;

/** Teams per school in each regular cohort. */
const TEAMS_PER_SCHOOL: Record<number, number> = { 1: 2, 2: 2, 3: 1 };

type CohortRow = (typeof COHORTS)[number];

interface Enrolment {
  studentId: number;
  schoolId: number;
  cohort: CohortRow;
  /** Weeks 1..switchWeek-1 were spent in previousTeamId. */
  teamId: number;
  previousTeamId?: number;
  switchWeek?: number;
}

interface StudentProfile {
  presentRate: number;
  struggling: boolean;
}

export const DEMO_SEED = 20_260_112;

/** Builds the whole demo data set from one seed: same seed, same rows. */
export function buildDemoData(seed = DEMO_SEED): DemoData {
  const rng = mulberry32(seed);
  const data: DemoData = {
    schools: [],
    cohorts: COHORTS.map((c) => ({ ...c })),
    teams: [],
    students: [],
    studentCohorts: [],
    studentTeams: [],
    attendance: [],
    weeklyData: [],
    districts: [],
  };
  const presentRateBySchool = new Map<number, number>();
  let nextSchoolId = 0;
  for (const district of DISTRICTS) {
    const ids: number[] = [];
    for (const [name, rate] of district.schools) {
      nextSchoolId++;
      data.schools.push({ id: nextSchoolId, name, district: district.name });
      presentRateBySchool.set(nextSchoolId, rate);
      ids.push(nextSchoolId);
    }
    data.districts.push({ name: district.name, schoolIds: ids });
  }
  data.schools.push({ id: DEMO_SCHOOL_ID, name: DEMO_SCHOOL.name, district: DEMO_SCHOOL.district });
  data.districts.push({ name: DEMO_SCHOOL.district, schoolIds: [DEMO_SCHOOL_ID] });
  presentRateBySchool.set(DEMO_SCHOOL_ID, DEMO_SCHOOL.presentRate);

  const cohort = (id: number) => COHORTS.find((c) => c.id === id) as CohortRow;
  const teamsOf = new Map<string, number[]>();
  const addTeams = (school: number, cohortRow: CohortRow, count: number) => {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const team = buildTeam(rng, data.teams.length + 1, school, cohortRow);
      data.teams.push(team);
      ids.push(team.id);
    }
    teamsOf.set(`${school}/${cohortRow.id}`, ids);
  };
  for (const school of data.schools) {
    if (school.id === DEMO_SCHOOL_ID) addTeams(school.id, cohort(DEMO_COHORT_ID), 2);
    else for (const [cohortId, count] of Object.entries(TEAMS_PER_SCHOOL)) addTeams(school.id, cohort(Number(cohortId)), count);
  }

  const enrolments: Enrolment[] = [];
  const profiles = new Map<number, StudentProfile>();
  const enrol = (studentId: number, schoolId: number, cohortRow: CohortRow, mayMove: boolean) => {
    const teams = teamsOf.get(`${schoolId}/${cohortRow.id}`) ?? [];
    const teamId = rng.pick(teams);
    const e: Enrolment = { studentId, schoolId, cohort: cohortRow, teamId };
    // A few students change team in week 4: they keep a previous team in their history.
    if (mayMove && teams.length > 1 && rng.chance(0.08)) {
      e.previousTeamId = teams.find((t) => t !== teamId);
      e.switchWeek = 4;
    }
    enrolments.push(e);
  };

  for (const school of data.schools) {
    const isDemo = school.id === DEMO_SCHOOL_ID;
    const count = isDemo ? 20 : rng.int(57, 75);
    const schoolRate = presentRateBySchool.get(school.id) ?? 0.9;
    for (let i = 0; i < count; i++) {
      const id = data.students.length + 1;
      const first = rng.pick(words.FIRST_NAMES);
      const last = rng.pick(words.LAST_NAMES);
      data.students.push({
        id,
        first_name: first,
        last_name: last,
        email: `${emailPart(first)}.${emailPart(last)}${id}@students.tally.demo`,
        school_id: school.id,
        benefit_assignment_id: `BA-${100000 + id}`,
      });
      const struggling = rng.chance(0.03);
      const own = Math.min(0.99, schoolRate + (rng.next() - 0.5) * 0.08);
      profiles.set(id, { presentRate: struggling ? 0.3 : own, struggling });
      if (isDemo) {
        enrol(id, school.id, cohort(DEMO_COHORT_ID), true);
        continue;
      }
      const r = rng.next();
      if (r < 0.42) {
        enrol(id, school.id, cohort(1), true);
        // Some Winter students come back for the short internship after it.
        if (rng.chance(0.15)) enrol(id, school.id, cohort(3), false);
      } else if (r < 0.84) {
        enrol(id, school.id, cohort(2), true);
      } else {
        enrol(id, school.id, cohort(3), false);
      }
    }
  }

  const studentById = new Map(data.students.map((s) => [s.id, s]));
  for (const e of enrolments) {
    const profile = profiles.get(e.studentId) as StudentProfile;
    const joined = `${weekFirstDay(e.cohort.start_date, 0)}T09:00:00Z`; // in the week before its week 1
    data.studentCohorts.push({ student_id: e.studentId, cohort_id: e.cohort.id, joined_at: joined });
    // A student exists from its first enrolment, not from the day the demo was loaded: the
    // dashboard's week-over-week change then compares with the weeks the demo describes.
    const student = studentById.get(e.studentId);
    if (student && (student.created_at === undefined || String(student.created_at) > joined)) student.created_at = joined;
    if (e.previousTeamId !== undefined && e.switchWeek !== undefined) {
      data.studentTeams.push({ student_id: e.studentId, team_id: e.previousTeamId, joined_at: `${e.cohort.start_date}T09:00:00Z` });
      const moved = weekFirstDay(e.cohort.start_date, e.switchWeek);
      data.studentTeams.push({ student_id: e.studentId, team_id: e.teamId, joined_at: `${moved}T09:00:00Z` });
    } else {
      data.studentTeams.push({ student_id: e.studentId, team_id: e.teamId, joined_at: `${e.cohort.start_date}T09:00:00Z` });
    }
    addWeeks(rng, data, e, profile);
  }
  return data;
}

/** Demo attendance and weekly data cover up to this many weeks of a cohort. */
const DEMO_WEEKS = 8;

/**
 * The demo's "today" for its alerts (YYYY-MM-DD): the day after the last seeded week of any
 * cohort, when every week the demo describes has been reported.
 */
export function demoSeededUntil(cohorts: ReadonlyArray<{ start_date: string; end_date: string }>): string {
  const ends = cohorts.map((c) => dayAfterWeek(c.start_date, Math.min(DEMO_WEEKS, cohortWeekCount(c.start_date, c.end_date))));
  return ends.sort().at(-1) ?? "";
}

function addWeeks(rng: Random, data: DemoData, e: Enrolment, profile: StudentProfile): void {
  const n = cohortWeekCount(e.cohort.start_date, e.cohort.end_date);
  const weeks = Math.min(DEMO_WEEKS, n);
  const expectedHours = e.cohort.total_expected_hours / n;
  for (let week = 1; week <= weeks; week++) {
    const weekStart = weekFirstDay(e.cohort.start_date, week);
    const teamId = e.switchWeek !== undefined && week < e.switchWeek && e.previousTeamId !== undefined ? e.previousTeamId : e.teamId;
    const missed: MeetingType[] = [];
    for (const meetingType of ["mentor", "advisor"] as const) {
      // Mentor meetings are Tuesdays or Wednesdays depending on the team; advisors meet Thursdays.
      const dayOffset = meetingType === "advisor" ? 3 : 1 + (teamId % 2);
      // Attendance drifts down a little as the weeks go by, and advisor meetings are missed more.
      const rate = profile.presentRate + 0.01 - 0.003 * (week - 1) + (meetingType === "mentor" ? 0.01 : -0.01);
      const status = drawStatus(rng, rate, profile.struggling);
      if (status === "absent") missed.push(meetingType);
      data.attendance.push({
        student_id: e.studentId,
        cohort_id: e.cohort.id,
        school_id: e.schoolId,
        team_id: teamId,
        week_number: week,
        date: addDays(weekStart, dayOffset),
        meeting_type: meetingType,
        status,
      });
    }
    const reflected = rng.chance(profile.struggling ? 0.5 : 0.93);
    const hours = drawHours(rng, expectedHours, profile.struggling);
    const flags = weekFlags(rng, { week, weeks: n, expectedHours, hours, reflected, missed, struggling: profile.struggling });
    data.weeklyData.push({
      student_id: e.studentId,
      cohort_id: e.cohort.id,
      week_number: week,
      week_start: weekStart,
      flags: JSON.stringify(flags),
      reflection: reflected ? reflection(rng) : null,
      advisor_notes: rng.chance(0.25) ? rng.pick(words.ADVISOR_NOTES) : null,
      hours_reported: hours,
    });
  }
}

function drawStatus(rng: Random, presentRate: number, struggling: boolean): AttendanceStatus {
  const r = rng.next();
  if (r < presentRate) return "present";
  // Struggling students are more often absent than late; everyone else is split evenly.
  const lateShare = struggling ? 0.35 : 0.5;
  return r < presentRate + (1 - presentRate) * lateShare ? "late" : "absent";
}

function drawHours(rng: Random, expected: number, struggling: boolean): number {
  let factor = 0.75 + rng.next() * 0.45;
  if (struggling) factor = 0.15 + rng.next() * 0.5;
  else if (rng.chance(0.04)) factor = 0.15 + rng.next() * 0.3;
  return Math.round(expected * factor * 2) / 2;
}

interface WeekFacts {
  week: number;
  weeks: number;
  expectedHours: number;
  hours: number;
  reflected: boolean;
  missed: MeetingType[];
  struggling: boolean;
}

/**
 * The flags of one student-week, drawn at random, in the order of the flag rules and with their
 * texts (the contract's, as the flag rules write them).
 */
function weekFlags(rng: Random, f: WeekFacts): WeeklyFlag[] {
  const flags: WeeklyFlag[] = [];
  const onPlatform = !rng.chance(0.003);
  if (!onPlatform) flags.push(flag("NO_PLATFORM_RECORD"));
  if (onPlatform) {
    const expected = (100 * f.week) / f.weeks;
    const noise = f.struggling ? -35 + rng.next() * 25 : -22 + rng.next() * 32;
    const progress = Math.max(0, Math.min(100, Math.round(expected + noise)));
    if (progress < expected - 20) flags.push(flag("BEHIND_PROGRESS", progress, expected));
    if (rng.chance(f.struggling ? 0.3 : 0.04)) flags.push(flag("PAST_DUE", rng.int(1, f.struggling ? 3 : 1)));
  }
  if (!f.reflected) flags.push(flag("NO_REFLECTION"));
  if (f.hours < 0.5 * f.expectedHours) flags.push(flag("LOW_HOURS", f.hours, f.expectedHours));
  if (rng.chance(f.struggling ? 0.25 : 0.03)) flags.push(flag("LOW_WELLBEING", rng.int(1, 2)));
  for (const m of f.missed) flags.push(flag("MISSED_MEETING", m));
  return flags;
}

function buildTeam(rng: Random, id: number, schoolId: number, cohortRow: CohortRow): Insertable<TeamsTable> & { id: number } {
  const place = rng.pick(words.ORG_PLACES);
  const org = rng.pick(words.ORG_KINDS);
  const orgName = `${place} ${org.name}`;
  return {
    id,
    name: `${rng.pick(words.TEAM_ADJECTIVES)} ${rng.pick(words.TEAM_NOUNS)}`,
    school_id: schoolId,
    cohort_id: cohortRow.id,
    organization_description: `${orgName} is a ${org.kind} that ${org.mission}.`,
    project_description: `${rng.pick(words.PROJECT_VERBS)} ${rng.pick(words.PROJECT_ARTIFACTS)} to help ${orgName} ${rng.pick(words.PROJECT_GOALS)}.`,
    start_date: cohortRow.start_date,
  };
}

function reflection(rng: Random): string {
  return `This week I ${rng.pick(words.REFLECTION_ACTIVITIES)}. ${rng.pick(words.REFLECTION_FEELINGS)} Next week I want to ${rng.pick(words.REFLECTION_GOALS)}.`;
}

/** "José" → "jose", "O'Brien" → "obrien", "Van der Berg" → "vanderberg". */
function emailPart(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/ø/gi, "o")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}
