import type { TeamItem } from "@tally/contract";
import { sql } from "kysely";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
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

  // Kept compressed as well (issue 41): a browser's reply is the kept bytes in the encoding it
  // accepts, marked so the compression plugin does not compress them again.
  it("answers brotli or gzip as accepted, each decoding to the identity reply and a fresh read, with vary set", async () => {
    const fresh = await listTeams(t.db, await resolveScope(t.db, subjectOf("admin")), {});
    const identity = await t.app.inject({ method: "GET", url: "/api/teams", headers: as.admin });
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.headers.vary).toMatch(/accept-encoding/i);
    expect(identity.json<{ data: TeamItem[] }>()).toEqual({ data: fresh });
    for (const [acceptEncoding, encoding, decode] of [
      ["br, gzip, deflate", "br", brotliDecompressSync],
      ["gzip, deflate", "gzip", gunzipSync],
      ["gzip;q=1, br;q=0.5", "gzip", gunzipSync],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const res = await t.app.inject({ method: "GET", url: "/api/teams", headers: { ...as.admin, "accept-encoding": acceptEncoding } });
        expect(res.statusCode).toBe(200);
        expect(res.headers["content-encoding"], acceptEncoding).toBe(encoding);
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
        // Decoded once gives the JSON: compressed twice, it would decode to compressed bytes.
        const body = decode(res.rawPayload).toString("utf8");
        expect(body, acceptEncoding).toBe(identity.body);
        expect(JSON.parse(body)).toEqual({ data: fresh });
      }
    }
    for (const headers of [{ "accept-encoding": "identity" }, { "accept-encoding": "deflate" }, { "accept-encoding": "br, gzip", "x-no-compression": "1" }]) {
      const res = await t.app.inject({ method: "GET", url: "/api/teams", headers: { ...as.admin, ...headers } });
      expect(res.headers["content-encoding"] ?? "identity", JSON.stringify(headers)).toBe("identity");
      expect(res.body).toBe(identity.body);
    }
  });

  it("keeps the encodings fresh after a write", async () => {
    await t.app.inject({ method: "GET", url: "/api/teams", headers: { ...as.admin, "accept-encoding": "br" } });
    await buildTeam(t.db, { schoolId: w.schools.a.id, cohortId: w.cohorts.open.id, name: "Alder Late Joiners" });
    const fresh = await listTeams(t.db, await resolveScope(t.db, subjectOf("admin")), {});
    for (const [encoding, decode] of [["br", brotliDecompressSync], ["gzip", gunzipSync]] as const) {
      const res = await t.app.inject({ method: "GET", url: "/api/teams", headers: { ...as.admin, "accept-encoding": encoding } });
      expect(res.headers["content-encoding"]).toBe(encoding);
      expect(JSON.parse(decode(res.rawPayload).toString("utf8"))).toEqual({ data: fresh });
    }
  });
});
