import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { ALERT_RULES } from "@tally/contract";
import { buildCohort, buildSchool } from "../../../test/factories.js";
import { useTestDatabase } from "../../../test/test-app.js";
import { evaluateAlerts, type RuleEvaluators } from "./alert-evaluation.service.js";

// The call list counts its alerts from an index alone (migration 029) only where the table's
// pages are marked all-visible, which only VACUUM does: the embedded engine never vacuums by
// itself. An evaluation that wrote many rows vacuums and analyses the alerts table (the planner
// then knows its rows); a small one leaves it.

const database = useTestDatabase();
const db = () => database.db;
const NOW = new Date("2026-07-20T09:00:00Z");
// Every rule raises every student: six rows per student.
const raise = () => ({ level: 1, evidence: "raised", details: { level: 1 } });
const evaluators = Object.fromEntries(ALERT_RULES.map((r) => [r, raise])) as unknown as RuleEvaluators;

/** Columns of the alerts table ANALYZE has gathered statistics on. */
async function analysedColumns(): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stats where schemaname = current_schema() and tablename = 'alerts'`.execute(db());
  return Number(rows[0]?.n);
}

/** What VACUUM leaves in pg_class: the table's pages and rows, and how many pages are all-visible. */
async function alertPages(): Promise<{ pages: number; rows: number; allVisible: number }> {
  const { rows } = await sql<{ pages: number; tuples: number; all_visible: number }>`
    select relpages as pages, reltuples as tuples, relallvisible as all_visible from pg_class where oid = 'alerts'::regclass`.execute(db());
  return { pages: Number(rows[0]?.pages), rows: Number(rows[0]?.tuples), allVisible: Number(rows[0]?.all_visible) };
}

async function cohortOf(students: number): Promise<number> {
  const school = await buildSchool(db());
  const cohortId = (await buildCohort(db(), { startDate: "2026-06-01", endDate: "2026-09-30" })).id;
  const made = await db()
    .insertInto("students")
    .values(Array.from({ length: students }, (_, i) => ({ first_name: `S${i}`, last_name: `Cohort${cohortId}`, school_id: school.id })))
    .returning("id")
    .execute();
  await db()
    .insertInto("student_cohorts")
    .values(made.map((s) => ({ student_id: s.id, cohort_id: cohortId })))
    .execute();
  return cohortId;
}

describe("the alerts table after an evaluation", () => {
  let small: number;
  let large: number;
  beforeAll(async () => {
    small = await cohortOf(3);
    large = await cohortOf(100);
  });

  it("is left as it is after a small evaluation, and vacuumed and analysed after one that wrote 500 rows or more", async () => {
    const few = await evaluateAlerts(db(), { cohortIds: [small], now: NOW }, evaluators);
    expect(few.opened).toBe(3 * ALERT_RULES.length);
    // Never vacuumed nor analysed: pg_class knows no page of it yet.
    expect(await alertPages()).toMatchObject({ pages: 0, allVisible: 0 });
    expect(await analysedColumns()).toBe(0);

    const many = await evaluateAlerts(db(), { cohortIds: [large], now: NOW }, evaluators);
    expect(many.opened).toBe(100 * ALERT_RULES.length);
    const after = await alertPages();
    expect(after.pages).toBeGreaterThan(0);
    expect(after.rows).toBe(103 * ALERT_RULES.length);
    expect(await analysedColumns()).toBeGreaterThan(0);
    // On PostgreSQL a page is marked only once no open transaction anywhere in the database can
    // still miss its rows (the other suites' are open beside this one); the embedded engine has
    // one session, so there every page is.
    if (database.engine === "embedded") expect(after.allVisible).toBe(after.pages);
  });
});
