import type { StudentsSummary } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { buildCohort, buildSchool, buildStudent, buildTeam } from "../../../test/factories.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";
import { resolveScope } from "../scope/scope.js";
import { summarizeStudentsByScan } from "./students-summary.repository.js";

// The summary's team count without filters comes from rollup_team_counts (migration 004) when
// no student is hidden and no newest team lies outside the scope: a world with neither, where
// that path decides the answer, unlike the dashboard world of students-rollups.db.test.ts.

const t = useTestApp();
const { headers } = useSignedIn(t, { role: "admin" });

async function summary(query = ""): Promise<StudentsSummary> {
  const res = await t.app.inject({ method: "GET", url: `/api/students/summary${query}`, headers });
  expect(res.statusCode).toBe(200);
  return res.json<StudentsSummary>();
}

async function exact(schoolIds?: number[]) {
  const scope = await resolveScope(t.db, { role: "admin", accessibleSchoolIds: "all" }, { schoolIds });
  return summarizeStudentsByScan(t.db, scope, {});
}

describe("the summary's team count from rollup_team_counts", () => {
  it("counts each current team once, also when a team has newest members at two schools", async () => {
    const [oak, pine] = [await buildSchool(t.db, { name: "Oak" }), await buildSchool(t.db, { name: "Pine" })];
    const cohort = await buildCohort(t.db, { name: "Main" });
    const oakTeams = [await buildTeam(t.db, { schoolId: oak.id, cohortId: cohort.id }), await buildTeam(t.db, { schoolId: oak.id, cohortId: cohort.id })];
    const pineTeam = await buildTeam(t.db, { schoolId: pine.id, cohortId: cohort.id });
    for (const team of [...oakTeams, pineTeam, oakTeams[0]]) {
      const schoolId = team?.school_id ?? oak.id;
      await buildStudent(t.db, { schoolId, cohortIds: [cohort.id], teams: [team?.id ?? 0] });
    }
    expect(await summary()).toEqual(await exact());
    expect((await summary()).teamCount).toBe(3);

    // A Pine student whose newest team is Oak's: that team now has members at both schools.
    const mover = await buildStudent(t.db, { schoolId: pine.id, cohortIds: [cohort.id], teams: [pineTeam.id, oakTeams[1]?.id ?? 0] });
    expect(await summary()).toEqual(await exact());
    expect((await summary()).teamCount).toBe(3);
    expect((await summary(`?schoolIds=${oak.id},${pine.id}`)).teamCount).toBe(3);

    // Back to one school per team: the count stays right on the quick path too.
    await t.db.deleteFrom("student_teams").where("student_id", "=", mover.id).where("team_id", "=", oakTeams[1]?.id ?? 0).execute();
    expect(await summary()).toEqual(await exact());
    expect((await summary()).teamCount).toBe(3);
    expect(await summary(`?schoolIds=${pine.id}`)).toEqual(await exact([pine.id]));
    expect((await summary(`?schoolIds=${pine.id}`)).teamCount).toBe(1);
  });
});
