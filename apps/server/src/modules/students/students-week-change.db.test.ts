import type { StudentsSummary } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCohort, buildSchool, buildStudent, buildTeam, buildUser } from "../../../test/factories.js";
import { loginAs, useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";

// Wednesday 2025-02-12: this week began Monday 2025-02-10 00:00 UTC.
const t = useTestApp({ clock: manualClock(new Date("2025-02-12T12:00:00Z")) });
let auth = { authorization: "" };
let established = 0;
let newcomers = 0;
let empty = 0;

const lastWeek = (day: number) => new Date(Date.UTC(2025, 1, day, 9));

/** A student created (and in its cohort) at `created`, with team memberships as given. */
async function student(schoolId: number, name: string, cohortId: number, created: Date, teams: Array<{ teamId: number; joinedAt: Date }>) {
  const [firstName = "", lastName = ""] = name.split(" ");
  const s = await buildStudent(t.db, { schoolId, firstName, lastName, cohortIds: [cohortId], teams });
  await t.db.updateTable("students").set({ created_at: created }).where("id", "=", s.id).execute();
  await t.db.updateTable("student_cohorts").set({ joined_at: created }).where("student_id", "=", s.id).execute();
}

beforeAll(async () => {
  established = (await buildSchool(t.db, { name: "Established High" })).id;
  newcomers = (await buildSchool(t.db, { name: "Newcomers High" })).id;
  empty = (await buildSchool(t.db, { name: "Empty High" })).id;
  const cohort = (await buildCohort(t.db, { name: "Spring", startDate: "2025-01-06", endDate: "2025-03-28" })).id;
  const hawks = (await buildTeam(t.db, { schoolId: established, cohortId: cohort, name: "Hawks" })).id;
  const owls = (await buildTeam(t.db, { schoolId: established, cohortId: cohort, name: "Owls" })).id;
  // Last week: Ana (Hawks) and Bo (Owls). This week Bo moved to Hawks and Cy arrived without a team.
  await student(established, "Ana García", cohort, lastWeek(3), [{ teamId: hawks, joinedAt: lastWeek(3) }]);
  await student(established, "Bo Garcia", cohort, lastWeek(4), [
    { teamId: owls, joinedAt: lastWeek(4) },
    { teamId: hawks, joinedAt: lastWeek(11) },
  ]);
  await student(established, "Cy Lind", cohort, lastWeek(11), []);
  // A school whose students all arrived this week.
  await student(newcomers, "Di New", cohort, lastWeek(10), []);
  auth = (await loginAs(t.app, await buildUser(t.db, { role: "admin" }))).headers;
});

async function summary(query: string): Promise<StudentsSummary> {
  const res = await t.app.inject({ method: "GET", url: `/api/students/summary?${query}`, headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json<StudentsSummary>();
}

describe("GET /api/students/summary?previousWeek=true", () => {
  it("gives the totals as this week began: more students, fewer teams (a move)", async () => {
    const body = await summary(`schoolIds=${established}&previousWeek=true`);
    expect(body).toEqual({
      schoolCount: 1,
      studentCount: 3,
      cohortCount: 1,
      teamCount: 1, // Ana and Bo in Hawks, Cy in none
      previousWeek: { weekStart: "2025-02-10", schoolCount: 1, studentCount: 2, cohortCount: 1, teamCount: 2 },
    });
  });

  it("applies the search, accent-folded, to both weeks", async () => {
    const body = await summary(`schoolIds=${established}&q=garcia&previousWeek=true`);
    expect(body.studentCount).toBe(2);
    expect(body.previousWeek).toEqual({ weekStart: "2025-02-10", schoolCount: 1, studentCount: 2, cohortCount: 1, teamCount: 2 });
  });

  it("says there is no earlier week when every student arrived this week", async () => {
    const body = await summary(`schoolIds=${newcomers}&previousWeek=true`);
    expect(body.studentCount).toBe(1);
    expect(body.previousWeek).toBeNull();
  });

  it("says there is no earlier week for filters with no data at all", async () => {
    expect(await summary(`schoolIds=${empty}&previousWeek=true`)).toEqual({
      schoolCount: 0,
      studentCount: 0,
      cohortCount: 0,
      teamCount: 0,
      previousWeek: null,
    });
    expect((await summary(`q=nobody-here&previousWeek=true`)).previousWeek).toBeNull();
  });

  it("leaves the comparison out unless asked, and refuses a value that is not true or false", async () => {
    expect(await summary(`schoolIds=${established}`)).not.toHaveProperty("previousWeek");
    const res = await t.app.inject({ method: "GET", url: "/api/students/summary?previousWeek=maybe", headers: auth });
    expect(res.statusCode).toBe(400);
  });
});
