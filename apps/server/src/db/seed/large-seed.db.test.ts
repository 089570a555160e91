import { flagText } from "@tally/contract";
import { sql } from "kysely";
import { beforeAll, describe, expect, test } from "vitest";
import { contentChecksum, expectTypicalShares, statusShares, summaryMismatches } from "../../../test/seed-checks.js";
import { openTestDatabase, useTestDatabase } from "../../../test/test-app.js";
import { seedDemo } from "./demo-seed.js";
import { LargeSeedExistsError, type LargeSeedSummary, seedLarge } from "./large-seed.js";

describe("seedLarge", () => {
  const database = useTestDatabase();
  let summary: LargeSeedSummary;
  const steps: string[] = [];
  const count = async (query: string) => Number((await sql.raw<{ n: number }>(query).execute(database.db)).rows[0]?.n);

  beforeAll(async () => {
    summary = await seedLarge(database.db, { students: 500, onProgress: (s) => steps.push(s) });
  });

  test("creates the requested students with ten weeks of both meetings and weekly data", async () => {
    expect(summary).toMatchObject({ schools: 5, cohorts: 4, students: 500, attendanceRecords: 10_000, weeklyData: 5_000 });
    expect(await count("select count(*) as n from schools")).toBe(5);
    expect(await count("select count(*) as n from cohorts")).toBe(4);
    expect(await count("select count(*) as n from teams")).toBe(summary.teams);
    expect(await count("select count(*) as n from students")).toBe(500);
    expect(await count("select count(*) as n from student_cohorts")).toBe(500);
    expect(await count("select count(*) as n from attendance_records")).toBe(10_000);
    expect(await count("select count(*) as n from weekly_data")).toBe(5_000);
    expect(await count("select count(distinct email) as n from students")).toBe(500);
    expect(await count("select count(*) as n from students where email !~ '^[a-z0-9]+\\.[a-z0-9]+\\.[0-9]+@synthetic\\.tally\\.demo$'")).toBe(0);
    expect(await count(`select count(*) as n from (select student_id from attendance_records group by student_id
      having count(*) <> 20 or count(distinct week_number) <> 10) x`)).toBe(0);
    expect(steps).toContain("attendance (10000 rows)");
  });

  test("puts every meeting on a team of the student's school and cohort, inside the cohort's week", async () => {
    expect(await count(`select count(*) as n from attendance_records a
      where not exists (select 1 from student_teams st join teams t on t.id = st.team_id
        where st.student_id = a.student_id and st.team_id = a.team_id and t.cohort_id = a.cohort_id and t.school_id = a.school_id)`)).toBe(0);
    expect(await count(`select count(*) as n from attendance_records a join cohorts c on c.id = a.cohort_id
      where a.date < c.start_date + (a.week_number - 1) * 7 or a.date >= c.start_date + a.week_number * 7 or a.date > c.end_date`)).toBe(0);
    expect(await count("select count(*) as n from (select student_id from student_teams group by 1 having count(*) > 1) x")).toBeGreaterThan(5);
  });

  test("is about 90% present, with late and absent a few percent each", async () => {
    const shares = await statusShares(database.db);
    expectTypicalShares(shares);
  });

  test("keeps the attendance summary equal to the records", async () => {
    expect(await count("select coalesce(sum(present + late + absent), 0) as n from attendance_summary")).toBe(10_000);
    expect(await summaryMismatches(database.db)).toBe(0);
  });

  test("writes flags that agree with attendance, hours and reflections", async () => {
    expect(await count(`select count(*) as n from weekly_data w where exists (select 1 from attendance_records a
      where a.student_id = w.student_id and a.cohort_id = w.cohort_id and a.week_number = w.week_number and a.status = 'absent')
      <> (flags @> '[{"code":"MISSED_MEETING"}]')`)).toBe(0);
    expect(await count(`select count(*) as n from weekly_data where (reflection is null) <> (flags @> '[{"code":"NO_REFLECTION"}]')`)).toBe(0);
    expect(await count(`select count(*) as n from weekly_data where (hours_reported < 7.5) <> (flags @> '[{"code":"LOW_HOURS"}]')`)).toBe(0);
    const empty = await count("select count(*) as n from weekly_data where flags = '[]'::jsonb");
    expect(empty).toBeGreaterThan(3_000);
    const texts = await sql<{ text: string }>`
      select distinct f->>'text' as text from weekly_data, jsonb_array_elements(flags) f where f->>'code' in ('LOW_HOURS', 'BEHIND_PROGRESS')`.execute(database.db);
    expect(texts.rows.length).toBeGreaterThan(3);
    for (const { text } of texts.rows) expect(text).toMatch(/^(Low hours \(\d+(\.\d)? of 15 expected\)|Behind on progress \(\d+% vs \d+% expected\))$/);
    // The texts are the contract's, written in the database.
    const lowHours = await sql<{ text: string; hours: number }>`
      select distinct f->>'text' as text, hours_reported as hours
        from weekly_data, jsonb_array_elements(flags) f where f->>'code' = 'LOW_HOURS'`.execute(database.db);
    expect(lowHours.rows.length).toBeGreaterThan(3);
    for (const row of lowHours.rows) expect(row.text).toBe(flagText.LOW_HOURS(Number(row.hours), 15));
  });

  test("refuses to run twice on the same database", async () => {
    await expect(seedLarge(database.db, { students: 500 })).rejects.toBeInstanceOf(LargeSeedExistsError);
    expect(await count("select count(*) as n from students")).toBe(500);
  });

  test("gives the same data on a fresh database, and adds to the demo data without clashing", async () => {
    const other = await openTestDatabase();
    try {
      await seedLarge(other.database.db, { students: 500 });
      expect(await contentChecksum(other.database.db)).toBe(await contentChecksum(database.db));

      const third = await openTestDatabase();
      try {
        await third.database.db.transaction().execute((trx) => seedDemo(trx, { password: "Demo-Pass-2026!" }));
        const before = Number((await sql<{ n: number }>`select count(*) as n from students`.execute(third.database.db)).rows[0]?.n);
        await seedLarge(third.database.db, { students: 300 });
        const after = Number((await sql<{ n: number }>`select count(*) as n from students`.execute(third.database.db)).rows[0]?.n);
        expect(after - before).toBe(300);
        expect(await summaryMismatches(third.database.db)).toBe(0);
      } finally {
        await third.drop();
      }
    } finally {
      await other.drop();
    }
  }, 120_000); // seeds a second database from nothing: minutes on a busy 2-core machine
});
