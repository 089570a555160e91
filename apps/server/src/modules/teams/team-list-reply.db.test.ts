import type { TeamItem } from "@tally/contract";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useDashboardWorld, type WorldUserKey } from "../../../test/dashboard-world.js";
import { buildTeam, setCohortVisibility } from "../../../test/factories.js";
import { resolveScope, type ScopeSubject } from "../scope/scope.js";
import { listTeams } from "./teams.repository.js";

// Issue 41: GET /teams is kept as the JSON text it was sent as and reused while
// team_list_version stands still (migration 031). After any write to teams, schools or
// cohorts, and for every scope and cohort, the reply must be the list read afresh.

const { t, w, as } = useDashboardWorld();

function subjectOf(key: WorldUserKey): ScopeSubject {
  const u = w.users[key];
  if (u.role === "admin" || u.role === "super_admin") return { role: u.role, accessibleSchoolIds: "all" };
  if (u.role === "school_user") return { role: u.role, accessibleSchoolIds: u.school_id === null ? [] : [u.school_id] };
  return { role: u.role, accessibleSchoolIds: u.schoolIds };
}

/** Every user's list, all cohorts and the open one, twice over: each equal to a fresh read. */
async function expectRepliesFresh(): Promise<void> {
  for (const key of Object.keys(w.users) as WorldUserKey[]) {
    for (const cohortId of [undefined, w.cohorts.open.id]) {
      const fresh = await listTeams(t.db, await resolveScope(t.db, subjectOf(key)), { cohortId });
      for (let i = 0; i < 2; i++) {
        const res = await t.app.inject({ method: "GET", url: `/api/teams${cohortId ? `?cohortId=${cohortId}` : ""}`, headers: as[key] });
        expect(res.statusCode).toBe(200);
        expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
        expect(res.json<{ data: TeamItem[] }>(), `${key} ${cohortId ?? "all"}`).toEqual({ data: fresh });
      }
    }
  }
}

const version = async () => (await sql<{ v: string }>`select version::text as v from team_list_version`.execute(t.db)).rows[0]?.v;

describe("GET /api/teams, kept and reused", () => {
  it("answers the fresh list, then the same after writes to teams, schools and cohorts", async () => {
    await expectRepliesFresh();
    const before = await version();
    const added = await buildTeam(t.db, { schoolId: w.schools.a.id, cohortId: w.cohorts.open.id, name: "Alder Newcomers" });
    expect(await version()).not.toBe(before);
    await expectRepliesFresh();
    await t.db.updateTable("schools").set({ name: "Alder High Renamed" }).where("id", "=", w.schools.a.id).execute();
    await expectRepliesFresh();
    await t.db.updateTable("cohorts").set({ name: "Spring Open Renamed" }).where("id", "=", w.cohorts.open.id).execute();
    await expectRepliesFresh();
    await t.db.updateTable("teams").set({ project_description: "A new project" }).where("id", "=", added.id).execute();
    await expectRepliesFresh();
    await t.db.deleteFrom("teams").where("id", "=", added.id).execute();
    await expectRepliesFresh();
  });

  it("follows the caller's scope: a cohort hidden at a school leaves that school's users' lists", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/teams", headers: as.schoolB });
    expect(res.json<{ data: TeamItem[] }>().data.map((x) => x.name)).toContain("Birch Otters");
    await setCohortVisibility(t.db, w.cohorts.open.id, w.schools.b.id, false);
    const after = await t.app.inject({ method: "GET", url: "/api/teams", headers: as.schoolB });
    expect(after.json<{ data: TeamItem[] }>().data.map((x) => x.name)).not.toContain("Birch Otters");
    await expectRepliesFresh();
  });

  it("does not move the version for a write that is rolled back", async () => {
    const before = await version();
    await expect(
      t.db.transaction().execute(async (trx) => {
        await trx.updateTable("schools").set({ district: "Elsewhere" }).where("id", "=", w.schools.b.id).execute();
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await version()).toBe(before);
    await expectRepliesFresh();
  });
});
