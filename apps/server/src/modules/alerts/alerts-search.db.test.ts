import type { AlertList, AlertSummary, StudentsResponse } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { buildAlert } from "../../../test/alert-factory.js";
import { useDashboardWorld, type WorldUserKey } from "../../../test/dashboard-world.js";

// Issue 41, point 10: the dashboard's Needs attention card follows the search as every other
// figure does. GET /api/alerts/summary (and the list it opens) take the dashboard's `q` and
// keep the alerts of exactly the students the dashboard's own search finds.

const { t, w, as } = useDashboardWorld();

/** One live alert for every student and cohort of the world. */
beforeAll(async () => {
  for (const student of Object.values(w.students)) {
    for (const cohortId of student.cohortIds) await buildAlert(t.db, { studentId: student.id, cohortId });
  }
});

const get = (user: WorldUserKey, url: string) => t.app.inject({ method: "GET", url, headers: as[user] });
const byId = (a: number, b: number) => a - b;

/** The students the dashboard's search finds for this user (GET /api/students?q=). */
async function searchedStudentIds(user: WorldUserKey, q: string): Promise<number[]> {
  const res = await get(user, `/api/students?q=${encodeURIComponent(q)}&limit=100`);
  expect(res.statusCode).toBe(200);
  return res.json<StudentsResponse>().data.map((s) => s.id);
}

// A name either way round, a school, a cohort and a team name, and a search that finds nobody.
const SEARCHES = ["ada", "archer ada", "Birch", "Spring Open", "Alder Hawks", "nobody here"];

describe("GET /api/alerts/summary with the dashboard's search", () => {
  it.each(["admin", "schoolA", "districtAB"] as const)("counts only the alerts of the students the search finds, for %s", async (user) => {
    const all = (await get(user, "/api/alerts?pageSize=200")).json<AlertList>().data;
    for (const q of SEARCHES) {
      const found = new Set(await searchedStudentIds(user, q));
      const expected = all.filter((a) => found.has(a.studentId));
      const res = await get(user, `/api/alerts/summary?q=${encodeURIComponent(q)}`);
      expect(res.statusCode, q).toBe(200);
      const summary = res.json<AlertSummary>();
      expect(summary.total, q).toBe(expected.length);
      expect(summary.studentIds, q).toEqual([...new Set(expected.map((a) => a.studentId))].sort(byId));
      // The list the card opens shows the same alerts.
      const list = (await get(user, `/api/alerts?q=${encodeURIComponent(q)}&pageSize=200`)).json<AlertList>();
      expect(list.data.map((a) => a.id).sort(byId), q).toEqual(expected.map((a) => a.id).sort(byId));
    }
  });

  it("narrows the other filters, never widens them", async () => {
    // Ada is at school A: naming school B with her name finds nothing; her cohort keeps her alert.
    const atB = (await get("admin", `/api/alerts/summary?q=ada&schoolId=${w.schools.b.id}`)).json<AlertSummary>();
    expect(atB.total).toBe(0);
    const inCohort = (await get("admin", `/api/alerts/summary?q=ada&cohortId=${w.cohorts.open.id}`)).json<AlertSummary>();
    expect(inCohort.studentIds).toEqual([w.students.aMover.id]);
    // A school user does not reach another school's students by searching for them.
    const other = (await get("schoolA", "/api/alerts/summary?q=finn")).json<AlertSummary>();
    expect(other.total).toBe(0);
  });

  it("reads empty search text as no search", async () => {
    const none = (await get("schoolA", "/api/alerts/summary")).json<AlertSummary>();
    const empty = await get("schoolA", "/api/alerts/summary?q=%20");
    expect(empty.statusCode).toBe(200);
    expect(empty.json<AlertSummary>()).toEqual(none);
    expect(none.total).toBeGreaterThan(0);
  });

  it("refuses search text over 200 characters with a 400 naming q", async () => {
    const res = await get("admin", `/api/alerts/summary?q=${"x".repeat(201)}`);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("q");
  });
});
