import type { StudentDetail, StudentsResponse, StudentsSummary } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { expectedVisible, useDashboardWorld, type WorldUserKey, useDemoToggles } from "../../../test/dashboard-world.js";

const { t, w, as } = useDashboardWorld();

const get = (user: WorldUserKey, url: string) => t.app.inject({ method: "GET", url, headers: as[user] });
const names = (body: StudentsResponse) => body.data.map((s) => `${s.first_name} ${s.last_name}`);

/** Which world students each user should see, worked out from the world's description. */
function expectedStudents(user: WorldUserKey): string[] {
  const s = w.students;
  const admin = user === "admin" || user === "superAdmin";
  const schools =
    user === "schoolA" ? [w.schools.a.id] : user === "schoolB" ? [w.schools.b.id] : user === "districtAB" ? [w.schools.a.id, w.schools.b.id] : user === "districtNone" ? [] : null;
  return Object.values(s)
    .filter((st) => {
      if (schools === null) {
        if (st.school_id === w.schools.demo.id) return false;
      } else if (st.school_id === null || !schools.includes(st.school_id)) return false;
      if (st.cohortIds.length === 0) return true;
      return st.cohortIds.some((c) => expectedVisible(w, c, st.school_id, admin));
    })
    .sort((x, y) => x.last_name.localeCompare(y.last_name) || x.first_name.localeCompare(y.first_name) || x.id - y.id)
    .map((st) => `${st.first_name} ${st.last_name}`);
}

describe("GET /api/students", () => {
  it("needs a signed-in user", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/students" });
    expect(res.statusCode).toBe(401);
  });

  it.each(["superAdmin", "admin", "districtAB", "districtNone", "schoolA", "schoolB"] as const)(
    "lists exactly the students %s may see, by name",
    async (user) => {
      const res = await get(user, "/api/students");
      expect(res.statusCode).toBe(200);
      const body = res.json<StudentsResponse>();
      expect(names(body)).toEqual(expectedStudents(user));
      expect(body.total).toBe(expectedStudents(user).length);
      expect(body.page).toBe(1);
      expect(body.limit).toBe(1000);
    },
  );

  it("keeps admins away from the demo school and students only in the demo cohort", async () => {
    const body = (await get("admin", "/api/students")).json<StudentsResponse>();
    expect(names(body)).not.toContain("Kim Demo");
    expect(names(body)).not.toContain("Eve Ellis");
    expect(names(body)).toContain("Cleo Carter"); // hidden cohorts do not apply to admins
    expect(names(body)).toContain("Jo Jones"); // no school
  });

  it("hides students whose cohorts are all hidden from school and district users, keeps those without cohorts", async () => {
    for (const user of ["schoolA", "districtAB"] as const) {
      const list = names((await get(user, "/api/students")).json<StudentsResponse>());
      expect(list).not.toContain("Cleo Carter");
      expect(list).toContain("Dan Dunn");
    }
  });

  it("admins may ask to respect visibility", async () => {
    const list = names((await get("admin", "/api/students?respectVisibility=true")).json<StudentsResponse>());
    expect(list).not.toContain("Cleo Carter");
    expect(list).toContain("Ada Archer");
  });

  it("gives each student the current cohort and active team, among visible ones", async () => {
    const body = (await get("schoolA", "/api/students")).json<StudentsResponse>();
    const ben = body.data.find((s) => s.id === w.students.aTwoCohorts.id);
    // hiddenAtA starts later than open but is hidden at Alder: open is current, Falcons the team.
    expect(ben?.cohort?.id).toBe(w.cohorts.open.id);
    expect(ben?.team?.id).toBe(w.teams.a1.id);
    expect(ben?.school_name).toBe("Alder High");
    const adminBen = (await get("admin", "/api/students")).json<StudentsResponse>().data.find((s) => s.id === ben?.id);
    expect(adminBen?.cohort?.id).toBe(w.cohorts.hiddenAtA.id);
    expect(adminBen?.team?.id).toBe(w.teams.aHidden.id);
    const ada = body.data.find((s) => s.id === w.students.aMover.id);
    expect(ada?.team).toEqual({ id: w.teams.a2.id, name: "Alder Hawks" });
    const dan = body.data.find((s) => s.id === w.students.aNoCohort.id);
    expect(dan?.cohort).toBeNull();
    expect(dan?.team).toBeNull();
  });

  it("narrows by school_id and schoolIds, never widening the scope", async () => {
    const a = w.schools.a.id;
    const b = w.schools.b.id;
    const c = w.schools.c.id;
    expect(names((await get("admin", `/api/students?school_id=${b}`)).json())).toEqual(["Finn Fox", "Gus Green"]);
    expect(names((await get("admin", `/api/students?schoolIds=${b},${c}`)).json())).toEqual(["Finn Fox", "Gus Green", "Hana Hill", "Ivo Irwin"]);
    // District user asking for C (not assigned) gets nothing; for B and C gets only B.
    expect((await get("districtAB", `/api/students?school_id=${c}`)).json<StudentsResponse>().total).toBe(0);
    expect(names((await get("districtAB", `/api/students?schoolIds=${b},${c}`)).json())).toEqual(["Finn Fox", "Gus Green"]);
    // School user asking for another school gets nothing.
    expect((await get("schoolA", `/api/students?school_id=${b}`)).json<StudentsResponse>().total).toBe(0);
    expect(names((await get("schoolA", `/api/students?school_id=${a}`)).json())).toEqual(expectedStudents("schoolA"));
    // Admin naming the demo school alone opens its dashboard (demo adminAccess, on by default); a nonexistent school gets nothing.
    expect(names((await get("admin", `/api/students?school_id=${w.schools.demo.id}`)).json())).toEqual(["Kim Demo"]);
    expect((await get("admin", "/api/students?school_id=999999")).json<StudentsResponse>().total).toBe(0);
  });

  it("filters by cohort (visible memberships) and by current team", async () => {
    expect(names((await get("schoolA", `/api/students?cohortId=${w.cohorts.open.id}`)).json())).toEqual(["Ada Archer", "Ben Baker"]);
    expect((await get("schoolA", `/api/students?cohortId=${w.cohorts.hiddenAtA.id}`)).json<StudentsResponse>().total).toBe(0);
    expect(names((await get("districtAB", `/api/students?cohortId=${w.cohorts.hiddenAtA.id}`)).json())).toEqual(["Finn Fox"]);
    expect(names((await get("admin", `/api/students?cohortId=${w.cohorts.demo.id}`)).json())).toEqual([]);
    // Ada moved from Falcons to Hawks: she counts for Hawks only.
    expect(names((await get("schoolA", `/api/students?teamId=${w.teams.a2.id}`)).json())).toEqual(["Ada Archer"]);
    expect(names((await get("schoolA", `/api/students?teamId=${w.teams.a1.id}`)).json())).toEqual(["Ben Baker"]);
    // For an admin Ben's newest team is the (visible to admins) Alder Secret.
    expect(names((await get("admin", `/api/students?teamId=${w.teams.a1.id}`)).json())).toEqual([]);
    expect((await get("schoolA", `/api/students?teamId=${w.teams.b1.id}`)).json<StudentsResponse>().total).toBe(0);
  });

  it("searches names, cohorts, teams and schools, case-insensitively and literally", async () => {
    expect(names((await get("admin", "/api/students?q=ada%20arch")).json())).toEqual(["Ada Archer"]);
    expect(names((await get("admin", "/api/students?q=CEDAR")).json())).toEqual(["Hana Hill", "Ivo Irwin"]);
    expect(names((await get("admin", "/api/students?q=owls")).json())).toEqual(["Gus Green"]);
    expect(names((await get("admin", "/api/students?q=shown%20at%20birch")).json())).toEqual(["Gus Green", "Ivo Irwin"]);
    // A school user cannot find students through a cohort hidden at their school.
    expect(names((await get("schoolA", "/api/students?q=hidden%20at%20alder")).json())).toEqual([]);
    expect(names((await get("districtAB", "/api/students?q=hidden%20at%20alder")).json())).toEqual(["Finn Fox"]);
    expect((await get("admin", "/api/students?q=%25")).json<StudentsResponse>().total).toBe(0);
    expect((await get("admin", "/api/students?q=_")).json<StudentsResponse>().total).toBe(0);
    expect((await get("schoolA", "/api/students?q=birch")).json<StudentsResponse>().total).toBe(0);
  });

  it("paginates with a stable order and the full total", async () => {
    const all = expectedStudents("admin");
    const pages: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const body = (await get("admin", `/api/students?limit=3&page=${page}`)).json<StudentsResponse>();
      expect(body.total).toBe(all.length);
      expect(body.limit).toBe(3);
      expect(body.page).toBe(page);
      pages.push(...names(body));
    }
    expect(pages).toEqual(all);
    expect((await get("admin", "/api/students?limit=3&page=50")).json<StudentsResponse>().data).toEqual([]);
  });

  it.each([
    ["limit=0"],
    ["limit=1001"],
    ["page=0"],
    ["page=abc"],
    ["school_id=-1"],
    ["schoolIds=1,x"],
    ["cohortId=1.5"],
    ["respectVisibility=maybe"],
  ])("answers 400 for %s", async (query) => {
    const res = await get("admin", `/api/students?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("VALIDATION_ERROR");
  });
});

describe("GET /api/students/summary", () => {
  it.each(["superAdmin", "admin", "districtAB", "districtNone", "schoolA", "schoolB"] as const)(
    "counts the same students %s can list",
    async (user) => {
      const list = (await get(user, "/api/students")).json<StudentsResponse>();
      const summary = (await get(user, "/api/students/summary")).json<StudentsSummary>();
      expect(summary.studentCount).toBe(list.total);
      expect(summary.schoolCount).toBe(new Set(list.data.map((s) => s.school_id).filter((x) => x !== null)).size);
    },
  );

  it("counts schools, visible cohorts and current teams for filters", async () => {
    expect((await get("schoolA", "/api/students/summary")).json()).toEqual({
      schoolCount: 1,
      studentCount: 4, // Ada, Ben, Dan, Eve (demo cohort is not hidden for school users)
      cohortCount: 2, // open, demo
      teamCount: 3, // Hawks (Ada), Falcons (Ben), Alder Demo Team (Eve)
    });
    expect((await get("districtAB", "/api/students/summary")).json()).toEqual({
      schoolCount: 2,
      studentCount: 6,
      cohortCount: 4, // open, demo, hiddenAtA (visible at B), shownAtB
      teamCount: 5,
    });
    expect((await get("admin", `/api/students/summary?schoolIds=${w.schools.b.id},${w.schools.c.id}&cohortId=${w.cohorts.open.id}`)).json()).toEqual({
      schoolCount: 2,
      studentCount: 2,
      cohortCount: 1,
      teamCount: 2,
    });
    expect((await get("schoolA", `/api/students/summary?school_id=${w.schools.b.id}`)).json()).toEqual({
      schoolCount: 0,
      studentCount: 0,
      cohortCount: 0,
      teamCount: 0,
    });
    // Birch Academy students, plus Ivo (Cedar) through the cohort "Shown At Birch".
    expect((await get("admin", "/api/students/summary?q=birch")).json<StudentsSummary>().studentCount).toBe(3);
  });
});

describe("GET /api/students/:id", () => {
  // The admins' "other" cases are demo students: closed to admins here (adminAccess off); the
  // demo dashboard's own reads, with it on, are in settings/demo-settings.routes.db.test.ts.
  useDemoToggles(t, { adminAccess: false });
  it("returns what the Overview tab shows", async () => {
    const res = await get("schoolA", `/api/students/${w.students.aMover.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<StudentDetail>();
    expect(body).toMatchObject({
      id: w.students.aMover.id,
      first_name: "Ada",
      last_name: "Archer",
      email: w.students.aMover.email,
      school_id: w.schools.a.id,
      school_name: "Alder High",
      currentCohort: { id: w.cohorts.open.id, name: "Spring Open", start_date: "2025-01-06", end_date: "2025-03-28" },
      activeTeam: {
        id: w.teams.a2.id,
        name: "Alder Hawks",
        organization_description: "Alder Hawks organisation",
        project_description: "Alder Hawks project",
      },
    });
    expect(body.previousTeams.map((p) => p.name)).toEqual(["Alder Falcons"]);
    expect(body.cohorts.map((c) => c.name)).toEqual(["Spring Open"]);
  });

  it("lists cohorts newest first and hides hidden ones from school users", async () => {
    const admin = (await get("admin", `/api/students/${w.students.aTwoCohorts.id}`)).json<StudentDetail>();
    expect(admin.cohorts.map((c) => c.name)).toEqual(["Hidden At Alder", "Spring Open"]);
    expect(admin.currentCohort?.name).toBe("Hidden At Alder");
    const school = (await get("schoolA", `/api/students/${w.students.aTwoCohorts.id}`)).json<StudentDetail>();
    expect(school.cohorts.map((c) => c.name)).toEqual(["Spring Open"]);
    expect(school.activeTeam?.name).toBe("Alder Falcons");
    expect(school.previousTeams).toEqual([]);
  });

  const cases: Array<[WorldUserKey, "own" | "other" | "missing", number, () => number]> = [
    ["superAdmin", "own", 200, () => w.students.cOpen.id],
    ["superAdmin", "other", 404, () => w.students.demo.id],
    ["superAdmin", "missing", 404, () => 987654],
    ["admin", "own", 200, () => w.students.aAllHidden.id],
    ["admin", "other", 404, () => w.students.aDemoCohort.id],
    ["admin", "missing", 404, () => 987654],
    ["districtAB", "own", 200, () => w.students.bShown.id],
    ["districtAB", "other", 404, () => w.students.cOpen.id],
    ["districtAB", "missing", 404, () => 987654],
    ["schoolA", "own", 200, () => w.students.aNoCohort.id],
    ["schoolA", "other", 404, () => w.students.bOpen.id],
    ["schoolA", "missing", 404, () => 987654],
    ["schoolA", "other", 404, () => w.students.aAllHidden.id],
    ["districtNone", "other", 404, () => w.students.aMover.id],
  ];
  it.each(cases)("%s, %s student → %i", async (user, _kind, status, id) => {
    const res = await get(user, `/api/students/${id()}`);
    expect(res.statusCode).toBe(status);
    if (status === 404) expect(res.json()).toEqual({ error: "Not found", code: "NOT_FOUND" });
  });

  it("answers 400 for a malformed id", async () => {
    expect((await get("admin", "/api/students/abc")).statusCode).toBe(400);
  });
});
