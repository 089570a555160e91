import type { AdminSchoolItem, SchoolItem } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { useDashboardWorld, type WorldUserKey } from "../../../test/dashboard-world.js";
import { listChanges } from "../audit/audit.service.js";

const { t, w, as } = useDashboardWorld();

const call = (method: "GET" | "POST" | "PATCH", url: string, user: WorldUserKey | null, payload?: unknown) =>
  t.app.inject({ method, url, headers: user ? as[user] : {}, ...(payload === undefined ? {} : { payload: payload as object }) });

describe("GET /api/schools/admin", () => {
  it("lists every school but the demo school, by name, with its student count", async () => {
    const res = await call("GET", "/api/schools/admin", "admin");
    expect(res.statusCode).toBe(200);
    const data = res.json<{ data: AdminSchoolItem[] }>().data;
    expect(data.map((s) => [s.name, s.student_count])).toEqual([
      ["Alder High", 5],
      ["Birch Academy", 2],
      ["Cedar College", 2],
    ]);
    expect(data.some((s) => s.id === w.schools.demo.id)).toBe(false);
  });

  it.each(["districtAB", "schoolA"] as WorldUserKey[])("refuses %s with 403", async (user) => {
    const res = await call("GET", "/api/schools/admin", user);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("Only an administrator can manage schools");
  });
});

describe("POST /api/schools", () => {
  it("adds a school (name and district trimmed), lists it and records the change", async () => {
    const res = await call("POST", "/api/schools", "admin", { name: "  Dogwood High  ", district: " North " });
    expect(res.statusCode).toBe(201);
    const created = res.json<{ data: AdminSchoolItem }>().data;
    expect(created).toMatchObject({ name: "Dogwood High", district: "North", student_count: 0 });
    const list = (await call("GET", "/api/schools", "superAdmin")).json<{ data: SchoolItem[] }>().data;
    expect(list.map((s) => s.name)).toContain("Dogwood High");
    const audit = await listChanges(t.db, { entity: "school" });
    const row = audit.find((r) => r.entity_id === String(created.id));
    expect(row).toMatchObject({
      action: "school.created",
      actor_id: w.users.admin.id,
      before: null,
      after: { id: created.id, name: "Dogwood High", district: "North" },
    });
  });

  it("two simultaneous adds of one name: one 201, one 409", async () => {
    const replies = await Promise.all([
      call("POST", "/api/schools", "admin", { name: "Twin Oaks School" }),
      call("POST", "/api/schools", "superAdmin", { name: "twin oaks school" }),
    ]);
    expect(replies.map((r) => r.statusCode).toSorted()).toEqual([201, 409]);
  });

  it("defaults the district to empty", async () => {
    const res = await call("POST", "/api/schools", "superAdmin", { name: "Elm Prep" });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.district).toBe("");
  });

  it.each(["alder high", "ALDER HIGH", " Alder High "])("refuses %j: the name exists ignoring case (409)", async (name) => {
    const before = (await listChanges(t.db, { entity: "school" })).length;
    const res = await call("POST", "/api/schools", "admin", { name });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(`A school named "${name.trim()}" already exists`);
    expect((await listChanges(t.db, { entity: "school" })).length).toBe(before);
  });

  it.each([
    [{}, "body.name", "School name is required"],
    [{ name: "   " }, "body.name", "School name is required"],
    [{ name: "x".repeat(101) }, "body.name", "School name must be at most 100 characters"],
    [{ name: 7 }, "body.name", "School name is required"],
    [{ name: "Ok", district: "d".repeat(101) }, "body.district", "District must be at most 100 characters"],
    [{ name: "Ok", extra: 1 }, "body.extra", 'Unknown field "extra": this call does not take it'],
  ])("refuses %j with 400 naming the field", async (payload, path, message) => {
    const res = await call("POST", "/api/schools", "admin", payload);
    expect(res.statusCode).toBe(400);
    const body = res.json<{ error: string; details: Array<{ path: string; message: string }> }>();
    expect(body.details[0]?.path).toBe(path);
    if (message) expect(body.error).toBe(message);
  });

  it.each(["districtAB", "schoolA"] as WorldUserKey[])("refuses %s with 403 (before reading the body)", async (user) => {
    expect((await call("POST", "/api/schools", user, { name: "Sneaky School" })).statusCode).toBe(403);
    expect((await call("POST", "/api/schools", user, { bad: true })).statusCode).toBe(403);
  });

  it("needs a signed-in user", async () => {
    expect((await call("POST", "/api/schools", null, { name: "Anon" })).statusCode).toBe(401);
  });
});

describe("PATCH /api/schools/:id", () => {
  it("renames a school, keeps its students and records before and after", async () => {
    const created = (await call("POST", "/api/schools", "admin", { name: "Fir Grammar", district: "East" })).json().data;
    const res = await call("PATCH", `/api/schools/${created.id}`, "superAdmin", { name: "Fir Grammar School" });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ id: created.id, name: "Fir Grammar School", district: "East", student_count: 0 });
    const [row] = (await listChanges(t.db, { entity: "school" })).filter((r) => r.entity_id === String(created.id));
    expect(row).toMatchObject({
      action: "school.updated",
      actor_id: w.users.superAdmin.id,
      before: { name: "Fir Grammar", district: "East" },
      after: { name: "Fir Grammar School", district: "East" },
    });
  });

  it("changes the district alone and counts the school's students", async () => {
    const res = await call("PATCH", `/api/schools/${w.schools.b.id}`, "admin", { district: "South" });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ name: "Birch Academy", district: "South", student_count: 2 });
  });

  it("allows a change of case of the school's own name", async () => {
    const res = await call("PATCH", `/api/schools/${w.schools.c.id}`, "admin", { name: "CEDAR College" });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.name).toBe("CEDAR College");
    await call("PATCH", `/api/schools/${w.schools.c.id}`, "admin", { name: "Cedar College" });
  });

  it("writes nothing and records nothing when nothing changes", async () => {
    const before = (await listChanges(t.db, { entity: "school" })).length;
    const res = await call("PATCH", `/api/schools/${w.schools.a.id}`, "admin", { name: "Alder High" });
    expect(res.statusCode).toBe(200);
    expect((await listChanges(t.db, { entity: "school" })).length).toBe(before);
  });

  it("refuses another school's name ignoring case (409)", async () => {
    const res = await call("PATCH", `/api/schools/${w.schools.a.id}`, "admin", { name: "birch academy" });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('A school named "birch academy" already exists');
  });

  it("answers 404 for an unknown school and 400 for a bad id or an empty body", async () => {
    const missing = await call("PATCH", "/api/schools/999999", "admin", { name: "Nowhere" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe("School not found");
    expect((await call("PATCH", "/api/schools/abc", "admin", { name: "X" })).statusCode).toBe(400);
    const empty = await call("PATCH", `/api/schools/${w.schools.a.id}`, "admin", {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe("Give a name or a district to change");
  });

  it.each(["districtAB", "schoolA"] as WorldUserKey[])("refuses %s with 403", async (user) => {
    expect((await call("PATCH", `/api/schools/${w.schools.a.id}`, user, { name: "Mine Now" })).statusCode).toBe(403);
  });
});
