import { sql } from "kysely";
import { beforeAll, describe, expect, test } from "vitest";
import { contentChecksum, expectTypicalShares, statusShares, summaryMismatches } from "../../../test/seed-checks.js";
import { openTestDatabase, useTestDatabase } from "../../../test/test-app.js";
import { verifyPassword } from "../../lib/password-hash.js";
import { DatabaseNotEmptyError, type DemoSeedResult, isDatabaseEmpty, seedDemo } from "./demo-seed.js";

const PASSWORD = "Demo-Pass-2026!";

describe("seedDemo", () => {
  const database = useTestDatabase();
  let result: DemoSeedResult;
  const count = async (query: string) => Number((await sql.raw<{ n: number }>(query).execute(database.db)).rows[0]?.n);

  beforeAll(async () => {
    result = await database.db.transaction().execute((trx) => seedDemo(trx, { password: PASSWORD }));
  });

  test("has about twelve schools in three districts plus the demo school 123", async () => {
    const schools = await database.db.selectFrom("schools").select(["id", "name", "district"]).orderBy("id").execute();
    expect(schools.length).toBeGreaterThanOrEqual(12);
    expect(schools.length).toBeLessThanOrEqual(14);
    expect(schools).toContainEqual({ id: 123, name: "Demo High School", district: "Demo District" });
    const districts = new Set(schools.filter((s) => s.id !== 123).map((s) => s.district));
    expect(districts.size).toBeGreaterThanOrEqual(3);
    // The sequence was moved past the explicit ids.
    const next = await database.db.insertInto("schools").values({ name: "After Seed", district: "X" }).returning("id").executeTakeFirstOrThrow();
    expect(next.id).toBeGreaterThan(123);
  });

  test("has four cohorts of the spec's programme types, including demo cohort 6", async () => {
    const cohorts = await database.db.selectFrom("cohorts").selectAll().orderBy("id").execute();
    expect(cohorts).toHaveLength(4);
    expect(cohorts.map((c) => c.id)).toContain(6);
    for (const c of cohorts) {
      expect(["Internship (4 week)", "Internship (6 week)", "Internship (8 week)", "Projects"]).toContain(c.program_type);
      expect(c.start_date.startsWith("2026-")).toBe(true);
      expect(c.total_expected_hours).toBeGreaterThan(0);
    }
    const next = await database.db
      .insertInto("cohorts")
      .values({ name: "After", program_type: "Projects", start_date: "2027-01-04", end_date: "2027-02-01" })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect(next.id).toBeGreaterThan(6);
  });

  test("has about sixty described teams and eight hundred students", async () => {
    const teams = await database.db.selectFrom("teams").selectAll().execute();
    expect(teams.length).toBeGreaterThanOrEqual(55);
    expect(teams.length).toBeLessThanOrEqual(65);
    for (const t of teams) {
      expect(t.organization_description?.length).toBeGreaterThan(20);
      expect(t.project_description?.length).toBeGreaterThan(20);
      expect(t.start_date).toMatch(/^2026-/);
    }
    expect(new Set(teams.map((t) => t.project_description)).size).toBeGreaterThan(40);
    const students = await count("select count(*) as n from students");
    expect(students).toBeGreaterThanOrEqual(750);
    expect(students).toBeLessThanOrEqual(850);
    expect(result.summary.students).toBe(students);
    expect(await count("select count(*) as n from students where first_name ~ '[^\\x01-\\x7f]' or last_name ~ '[^\\x01-\\x7f]'")).toBeGreaterThan(50);
    expect(await count("select count(*) as n from students where benefit_assignment_id like 'BA-1%'")).toBe(students);
    expect(await count("select count(*) as n from students where school_id = 123")).toBeGreaterThan(5);
    expect(await count("select count(*) as n from student_cohorts where cohort_id = 6")).toBeGreaterThan(5);
  });

  test("some students have previous teams and some are in more than one cohort", async () => {
    const moved = await count("select count(*) as n from (select student_id from student_teams group by student_id having count(*) > 1) x");
    const twoCohorts = await count("select count(*) as n from (select student_id from student_cohorts group by student_id having count(*) > 1) x");
    expect(moved).toBeGreaterThan(20);
    expect(twoCohorts).toBeGreaterThan(10);
    // The history's dates differ, so the newest membership is the active team.
    expect(await count("select count(*) as n from (select student_id from student_teams group by student_id having count(distinct joined_at) < count(*)) x")).toBe(0);
  });

  test("records eight weeks of mentor and advisor meetings per student-week", async () => {
    const perWeek = await sql<{ week_number: number; meeting_type: string; n: number }>`
      select week_number, meeting_type, count(*)::int as n from attendance_records group by 1, 2 order by 1, 2`.execute(database.db);
    expect(new Set(perWeek.rows.map((r) => r.week_number))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8]));
    // Every student-week has exactly one meeting of each type.
    expect(await count(`select count(*) as n from (select student_id, cohort_id, week_number from attendance_records
      group by 1, 2, 3 having count(*) filter (where meeting_type = 'mentor') <> 1 or count(*) filter (where meeting_type = 'advisor') <> 1) x`)).toBe(0);
    // An eight-week cohort's students have all sixteen meetings.
    expect(await count(`select count(*) as n from (select a.student_id from attendance_records a where a.cohort_id = 1
      group by a.student_id having count(*) <> 16) x`)).toBe(0);
    // Meetings fall inside the cohort's week, and on the team the student was in then.
    expect(await count(`select count(*) as n from attendance_records a join cohorts c on c.id = a.cohort_id
      where a.date < c.start_date + (a.week_number - 1) * 7 or a.date >= c.start_date + a.week_number * 7`)).toBe(0);
    expect(await count(`select count(*) as n from attendance_records a
      where not exists (select 1 from student_teams st join teams t on t.id = st.team_id
        where st.student_id = a.student_id and st.team_id = a.team_id and t.cohort_id = a.cohort_id and t.school_id = a.school_id)`)).toBe(0);
  });

  test("is mostly present, a little late and absent, and varies by school", async () => {
    const shares = await statusShares(database.db);
    expect(shares.total).toBe(result.summary.attendanceRecords);
    expectTypicalShares(shares);
    const bySchool = await sql<{ rate: number }>`
      select avg((status = 'present')::int)::float8 as rate from attendance_records group by school_id`.execute(database.db);
    const rates = bySchool.rows.map((r) => r.rate);
    expect(Math.max(...rates) - Math.min(...rates)).toBeGreaterThan(0.04);
    const struggling = await count(`select count(*) as n from (select student_id from attendance_records group by student_id
      having avg((status = 'present')::int) < 0.5) x`);
    expect(struggling).toBeGreaterThan(3);
  });

  test("keeps the attendance summary equal to the records", async () => {
    expect(await count("select count(*) as n from attendance_summary")).toBeGreaterThan(0);
    expect(await summaryMismatches(database.db)).toBe(0);
  });

  test("has weekly data per student-week, with flags in the spec's texts on a minority of weeks", async () => {
    expect(await count("select count(*) as n from weekly_data")).toBe(result.summary.weeklyData);
    expect(await count(`select count(*) as n from (select distinct student_id, cohort_id, week_number from attendance_records) a
      left join weekly_data w using (student_id, cohort_id, week_number) where w.id is null`)).toBe(0);
    const empty = await count("select count(*) as n from weekly_data where flags = '[]'::jsonb");
    expect(empty / result.summary.weeklyData).toBeGreaterThan(0.6);
    const flags = await sql<{ code: string; text: string }>`
      select f->>'code' as code, f->>'text' as text from weekly_data, jsonb_array_elements(flags) f`.execute(database.db);
    const patterns: Record<string, RegExp> = {
      NO_PLATFORM_RECORD: /^No learning-platform record$/,
      BEHIND_PROGRESS: /^Behind on progress \(\d+% vs \d+(\.\d)?% expected\)$/,
      PAST_DUE: /^\d+ past-due assessment\(s\)$/,
      NO_REFLECTION: /^No reflection submitted$/,
      LOW_HOURS: /^Low hours \(\d+(\.\d)? of \d+(\.\d)? expected\)$/,
      LOW_WELLBEING: /^Low wellbeing \([12]\/5\)$/,
      MISSED_MEETING: /^Missed (mentor|advisor) meeting$/,
    };
    for (const f of flags.rows) expect(f.text).toMatch(patterns[f.code] ?? /^never$/);
    for (const code of ["BEHIND_PROGRESS", "NO_REFLECTION", "LOW_HOURS", "MISSED_MEETING"]) {
      expect(flags.rows.some((f) => f.code === code)).toBe(true);
    }
    // Flags agree with the data they describe.
    expect(await count(`select count(*) as n from weekly_data w where (reflection is null) <> (flags @> '[{"code":"NO_REFLECTION"}]')`)).toBe(0);
    expect(await count(`select count(*) as n from weekly_data w where exists (select 1 from attendance_records a
      where a.student_id = w.student_id and a.cohort_id = w.cohort_id and a.week_number = w.week_number and a.status = 'absent')
      <> (flags @> '[{"code":"MISSED_MEETING"}]')`)).toBe(0);
    expect(await count("select count(*) as n from weekly_data where reflection is not null and advisor_notes is not null and hours_reported > 0")).toBeGreaterThan(100);
  });

  test("creates the demo accounts with one password, verified e-mails and their schools", async () => {
    const users = await database.db.selectFrom("users").selectAll().orderBy("id").execute();
    const byName = new Map(users.map((u) => [u.username, u]));
    expect(byName.get("superadmin")?.role).toBe("super_admin");
    expect(byName.get("admin")?.role).toBe("admin");
    expect(byName.get("district")?.role).toBe("district_user");
    expect(byName.get("school")?.role).toBe("school_user");
    expect(byName.get("school")?.school_id).toBeTypeOf("number");
    expect(byName.get("superadmin")?.email).toBe("superadmin@tally.demo");
    expect(users.filter((u) => u.role === "admin").length).toBeGreaterThanOrEqual(2);
    expect(users.filter((u) => u.role === "school_user").length).toBeGreaterThanOrEqual(2);
    expect(byName.get("inactive")?.is_active).toBe(false);
    expect(users.filter((u) => u.username !== "inactive").every((u) => u.is_active && u.email_verified)).toBe(true);
    expect(new Set(users.map((u) => u.password_hash)).size).toBe(1);
    expect(await verifyPassword(users[0]?.password_hash ?? "", PASSWORD)).toBe(true);
    const districtSchools = await database.db
      .selectFrom("user_schools")
      .select("school_id")
      .where("user_id", "=", byName.get("district")?.id ?? -1)
      .execute();
    expect(districtSchools).toHaveLength(4);
    expect(result.signIns.map((s) => s.username)).toEqual(users.map((u) => u.username));
    expect(result.signIns.find((s) => s.username === "inactive")?.active).toBe(false);
  });

  test("refuses a database that already has data", async () => {
    await expect(database.db.transaction().execute((trx) => seedDemo(trx, { password: PASSWORD }))).rejects.toBeInstanceOf(
      DatabaseNotEmptyError,
    );
  });

  test("is deterministic: a second fresh database gets the same content", async () => {
    const other = await openTestDatabase();
    try {
      // A common password is refused before anything is written.
      await expect(other.database.db.transaction().execute((trx) => seedDemo(trx, { password: "Password123!" }))).rejects.toThrow(
        /too common/,
      );
      expect(await isDatabaseEmpty(other.database.db)).toBe(true);
      await other.database.db.transaction().execute((trx) => seedDemo(trx, { password: "Another-Pass-1!" }));
      const [a, b] = [await contentChecksum(database.db), await contentChecksum(other.database.db)];
      expect(a).toMatch(/^[0-9a-f]{32}$/);
      expect(b).toBe(a);
    } finally {
      await other.drop();
    }
  }, 120_000); // seeds a second database from nothing: minutes on a busy 2-core machine
});
