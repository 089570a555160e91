import { MESSAGES, type StudentDetail } from "@tally/contract";
import { beforeEach, describe, expect, it } from "vitest";
import { useDashboardWorld, type WorldUserKey } from "../../../test/dashboard-world.js";
import { setSetting } from "../../../test/factories.js";

const { t, w, as } = useDashboardWorld();
beforeEach(async () => {
  await t.db.deleteFrom("settings").where("key", "=", "features").execute();
});

const put = (user: WorldUserKey, id: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: "PUT", url: `/api/students/${id}`, headers: as[user], payload });
const row = (id: number) => t.db.selectFrom("students").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const teamHistory = (id: number) =>
  t.db.selectFrom("student_teams").select("team_id").where("student_id", "=", id).orderBy("joined_at").execute();

describe("PUT /api/students/:id", () => {
  it("lets a school user rename a student of their school", async () => {
    const res = await put("schoolA", w.students.aNoCohort.id, { first_name: " Daniel ", last_name: "Dunne" });
    expect(res.statusCode).toBe(200);
    expect(res.json<StudentDetail>()).toMatchObject({ first_name: "Daniel", last_name: "Dunne" });
    expect(await row(w.students.aNoCohort.id)).toMatchObject({ first_name: "Daniel", last_name: "Dunne" });
  });

  it.each([
    ["schoolA", () => w.students.bOpen.id],
    ["schoolA", () => w.students.aAllHidden.id],
    ["schoolA", () => 987654],
    ["districtAB", () => w.students.cOpen.id],
    ["admin", () => w.students.demo.id],
    ["superAdmin", () => 987654],
  ] as Array<[WorldUserKey, () => number]>)("%s gets 404 for a student outside their scope or unknown", async (user, id) => {
    const before = await t.db.selectFrom("students").selectAll().where("id", "=", id()).executeTakeFirst();
    const res = await put(user, id(), { first_name: "Changed" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "Not found", code: "NOT_FOUND" });
    expect(await t.db.selectFrom("students").selectAll().where("id", "=", id()).executeTakeFirst()).toEqual(before);
  });

  it("moves a student to another team, keeping the old one as history", async () => {
    const id = w.students.aMover.id;
    const res = await put("schoolA", id, { team_id: w.teams.a1.id });
    expect(res.statusCode).toBe(200);
    const body = res.json<StudentDetail>();
    expect(body.activeTeam?.id).toBe(w.teams.a1.id);
    expect(body.previousTeams.map((p) => p.id)).toEqual([w.teams.a2.id]);
    expect((await teamHistory(id)).map((r) => r.team_id)).toEqual([w.teams.a2.id, w.teams.a1.id]);
  });

  it("refuses a team of another school, or of a cohort hidden at the school (400)", async () => {
    for (const teamId of [w.teams.b1.id, w.teams.aHidden.id, 987654]) {
      const res = await put("schoolA", w.students.aTwoCohorts.id, { team_id: teamId });
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].path).toBe("body.team_id");
    }
  });

  it("keeps school users in their school, district users in theirs; admins move anywhere", async () => {
    expect((await put("schoolA", w.students.aTwoCohorts.id, { school_id: w.schools.b.id })).statusCode).toBe(403);
    expect((await put("districtAB", w.students.bShown.id, { school_id: w.schools.c.id })).statusCode).toBe(403);
    expect((await row(w.students.bShown.id)).school_id).toBe(w.schools.b.id);
    const moved = await put("districtAB", w.students.bShown.id, { school_id: w.schools.a.id, team_id: w.teams.a1.id });
    expect(moved.statusCode).toBe(200);
    expect((await row(w.students.bShown.id)).school_id).toBe(w.schools.a.id);
    const back = await put("admin", w.students.bShown.id, { school_id: w.schools.b.id, team_id: w.teams.bShown.id });
    expect(back.statusCode).toBe(200);
    expect(back.json<StudentDetail>()).toMatchObject({ school_id: w.schools.b.id, school_name: "Birch Academy", activeTeam: { id: w.teams.bShown.id } });
    expect((await put("admin", w.students.bShown.id, { school_id: 987654 })).statusCode).toBe(400);
  });

  it("lets only admins change an e-mail: others get 403 whether the address is taken or free", async () => {
    const cases: Array<[WorldUserKey, number]> = [
      ["schoolA", w.students.aNoCohort.id],
      ["districtAB", w.students.bShown.id],
    ];
    for (const [user, id] of cases) {
      const before = await row(id);
      for (const email of [w.students.cOpen.email, "nobody.yet@example.test", null, "", before.email]) {
        const res = await put(user, id, { first_name: "Tried", email });
        expect(res.statusCode, `${user} ${email}`).toBe(403);
        expect(res.json()).toEqual({ error: MESSAGES.studentEmailAdminOnly, code: "FORBIDDEN" });
      }
      expect(await row(id)).toEqual(before);
    }
    // Refused before the scope check too: a student out of reach looks the same.
    const outside = await put("schoolA", w.students.cOpen.id, { email: "nobody.yet@example.test" });
    expect(outside.json()).toEqual({ error: MESSAGES.studentEmailAdminOnly, code: "FORBIDDEN" });

    const bySuperAdmin = await put("superAdmin", w.students.aNoCohort.id, { email: "daniel@example.test" });
    expect(bySuperAdmin.statusCode).toBe(200);
    expect((await row(w.students.aNoCohort.id)).email).toBe("daniel@example.test");
  });

  it("validates e-mail format and uniqueness", async () => {
    const bad = await put("admin", w.students.cOpen.id, { email: "not-an-email" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("Please enter a valid email address");
    const taken = await put("admin", w.students.cOpen.id, { email: w.students.bOpen.email?.toUpperCase() });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe("CONFLICT");
    expect((await row(w.students.cOpen.id)).email).toBe(w.students.cOpen.email);
    const cleared = await put("admin", w.students.cOpen.id, { email: "" });
    expect(cleared.statusCode).toBe(200);
    expect((await row(w.students.cOpen.id)).email).toBeNull();
  });

  it("lets admins set, change and clear the Benefit Assignment ID, shown in the student's detail; a taken ID is a 409 naming it and its holder", async () => {
    const id = w.students.cOpen.id;
    const set = await put("admin", id, { benefit_assignment_id: "  BA-EDIT-1 " });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<StudentDetail>().benefit_assignment_id).toBe("BA-EDIT-1");
    const shown = await t.app.inject({ method: "GET", url: `/api/students/${id}`, headers: as.superAdmin });
    expect(shown.json<StudentDetail>().benefit_assignment_id).toBe("BA-EDIT-1");
    const audit = await t.db.selectFrom("audit_log").selectAll().where("entity", "=", "student").where("entity_id", "=", String(id)).orderBy("id", "desc").executeTakeFirstOrThrow();
    const after = typeof audit.after === "string" ? JSON.parse(audit.after) : audit.after;
    expect(after).toMatchObject({ benefit_assignment_id: "BA-EDIT-1" });

    const holder = w.students.bOpen;
    await t.db.updateTable("students").set({ benefit_assignment_id: "BA-HELD" }).where("id", "=", holder.id).execute();
    const taken = await put("superAdmin", id, { benefit_assignment_id: "BA-HELD", first_name: "Not saved" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ code: "CONFLICT", error: `Benefit Assignment ID "BA-HELD" already belongs to ${holder.first_name} ${holder.last_name}` });
    expect(await row(id)).toMatchObject({ benefit_assignment_id: "BA-EDIT-1", first_name: w.students.cOpen.first_name });
    // Saving the student's own ID again is no conflict.
    expect((await put("admin", id, { benefit_assignment_id: "BA-EDIT-1" })).statusCode).toBe(200);

    const cleared = await put("admin", id, { benefit_assignment_id: "" });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json<StudentDetail>().benefit_assignment_id).toBeNull();
    expect((await row(id)).benefit_assignment_id).toBeNull();
  });

  it("refuses the Benefit Assignment ID from anyone but an admin (403), and a bad one (400 naming it)", async () => {
    const res = await put("schoolA", w.students.aMover.id, { benefit_assignment_id: "BA-MINE" });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe(MESSAGES.studentBenefitIdAdminOnly);
    expect((await put("districtAB", w.students.bOpen.id, { benefit_assignment_id: null })).statusCode).toBe(403);
    expect((await row(w.students.aMover.id)).benefit_assignment_id).toBeNull();
    for (const [value, message] of [
      [42, "Benefit Assignment ID must be text"],
      ["x".repeat(101), "Benefit Assignment ID must be at most 100 characters"],
    ] as const) {
      const bad = await put("admin", w.students.cOpen.id, { benefit_assignment_id: value });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toBe(message);
    }
  });

  // Issue 41.9: a name travels into CSV exports, PDFs, e-mails and the log; a line break would start a line of its own.
  it.each([
    ["first_name", "First name", "Ann\nLee"],
    ["last_name", "Last name", "Lee\r\nX-Injected: yes"],
    ["first_name", "First name", "Ann\tLee"],
    ["last_name", "Last name", "Lee\u0085"],
    ["first_name", "First name", "Ann\u007f"],
    ["last_name", "Last name", "Lee\u2028Ann"],
    ["first_name", "First name", "Ann\u2029Lee"],
    ["last_name", "Last name", "\u202eeeL"],
  ])("refuses %s with a control character (400 naming the field), changing nothing", async (field, label, value) => {
    const id = w.students.cOpen.id;
    const before = await row(id);
    const res = await put("admin", id, { [field]: value });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: "VALIDATION_ERROR", error: `${label} must not contain line breaks or other control characters` });
    expect(res.json().details[0].path).toBe(`body.${field}`);
    expect(await row(id)).toEqual(before);
  });

  it.each([
    [{ first_name: "" }],
    [{ first_name: 42 }],
    [{ school_id: "x" }],
    [{ team_id: -1 }],
    [{ unknown_field: 1 }],
  ])("answers 400 for %j", async (payload) => {
    expect((await put("admin", w.students.cOpen.id, payload)).statusCode).toBe(400);
  });

  it("honours enableStudentEditing: globally and per school, never for admins", async () => {
    await setSetting(t.db, "features", { enableExport: true, enableStudentEditing: false, applyToAllSchools: true, schoolSettings: {} });
    expect((await put("schoolA", w.students.aMover.id, { first_name: "Adele" })).statusCode).toBe(403);
    expect((await put("districtAB", w.students.bOpen.id, { first_name: "Finnian" })).statusCode).toBe(403);
    expect((await put("admin", w.students.bOpen.id, { first_name: "Finnian" })).statusCode).toBe(200);
    await setSetting(t.db, "features", {
      enableExport: true,
      enableStudentEditing: true,
      applyToAllSchools: false,
      schoolSettings: { [String(w.schools.a.id)]: { enableExport: true, enableStudentEditing: false } },
    });
    expect((await put("schoolA", w.students.aMover.id, { first_name: "Adele" })).statusCode).toBe(403);
    expect((await row(w.students.aMover.id)).first_name).toBe("Ada");
    expect((await put("districtAB", w.students.bOpen.id, { first_name: "Finn" })).statusCode).toBe(200);
    // Moving into a school where editing is off is refused too.
    expect((await put("districtAB", w.students.bOpen.id, { school_id: w.schools.a.id })).statusCode).toBe(403);
  });
});
