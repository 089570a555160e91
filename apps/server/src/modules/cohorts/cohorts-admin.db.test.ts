import { type AdminCohortItem, type CohortItem, cohortWeekCount } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { useDashboardWorld, type WorldUserKey } from "../../../test/dashboard-world.js";
import { listChanges } from "../audit/audit.service.js";

const { t, w, as } = useDashboardWorld();

const call = (method: "GET" | "POST" | "PATCH", url: string, user: WorldUserKey | null, payload?: unknown) =>
  t.app.inject({ method, url, headers: user ? as[user] : {}, ...(payload === undefined ? {} : { payload: payload as object }) });

const valid = {
  name: "Summer 2026",
  program_type: "Internship (6 week)",
  start_date: "2026-06-01",
  end_date: "2026-07-10",
  total_expected_hours: 120,
};

describe("cohortWeekCount", () => {
  it.each([
    ["2026-06-01", "2026-06-26", 4], // Monday to Friday four weeks later: 25 days
    ["2026-06-01", "2026-06-29", 4], // Monday to Monday: 28 days
    ["2026-06-01", "2026-06-30", 5],
    ["2026-06-01", "2026-06-02", 1],
    ["2026-06-01", "2026-06-01", 1], // at least 1
  ])("%s to %s is %i weeks", (start, end, weeks) => {
    expect(cohortWeekCount(start, end)).toBe(weeks);
  });
});

describe("GET /api/cohorts/admin", () => {
  it("lists every cohort but the demo one, newest first, with students and weeks", async () => {
    const res = await call("GET", "/api/cohorts/admin", "admin");
    expect(res.statusCode).toBe(200);
    const data = res.json<{ data: AdminCohortItem[] }>().data;
    const { open, hiddenAll, hiddenAtA, shownAtB, future } = w.cohorts;
    expect(data.map((c) => [c.id, c.student_count, c.week_count])).toEqual([
      [future.id, 0, 9],
      [hiddenAtA.id, 3, 6],
      [open.id, 5, 12],
      [shownAtB.id, 2, 6],
      [hiddenAll.id, 1, 8],
    ]);
    expect(data.some((c) => c.id === w.cohorts.demo.id)).toBe(false);
  });

  it.each(["districtAB", "schoolA"] as WorldUserKey[])("refuses %s with 403", async (user) => {
    const res = await call("GET", "/api/cohorts/admin", user);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("Only an administrator can manage cohorts");
  });
});

describe("POST /api/cohorts", () => {
  it("adds a cohort, lists it for admins and records the change", async () => {
    const res = await call("POST", "/api/cohorts", "admin", { ...valid, name: "  Summer 2026 " });
    expect(res.statusCode).toBe(201);
    const created = res.json<{ data: AdminCohortItem }>().data;
    expect(created).toEqual({ id: created.id, ...valid, student_count: 0, week_count: 6 });
    const list = (await call("GET", "/api/cohorts", "superAdmin")).json<{ data: CohortItem[] }>().data;
    expect(list.map((c) => c.name)).toContain("Summer 2026");
    const row = (await listChanges(t.db, { entity: "cohort" })).find((r) => r.entity_id === String(created.id));
    expect(row).toMatchObject({ action: "cohort.created", actor_id: w.users.admin.id, before: null, after: { ...valid } });
  });

  it("accepts 0 expected hours and every program type", async () => {
    for (const program_type of ["Internship (4 week)", "Internship (8 week)", "Projects"]) {
      const res = await call("POST", "/api/cohorts", "superAdmin", { ...valid, name: `P ${program_type}`, program_type, total_expected_hours: 0 });
      expect(res.statusCode).toBe(201);
    }
  });

  it.each([
    [{ end_date: "2026-05-01" }, "body.end_date", "End date must be after the start date"],
    [{ end_date: "2026-06-01" }, "body.end_date", "End date must be after the start date"],
    [{ program_type: "Internship (5 week)" }, "body.program_type", "Program type must be one of: Internship (4 week), Internship (6 week), Internship (8 week), Projects"],
    [{ total_expected_hours: -1 }, "body.total_expected_hours", "Total expected hours must be 0 or more"],
    [{ total_expected_hours: "ten" }, "body.total_expected_hours", "Total expected hours must be a number"],
    [{ total_expected_hours: 1e6 }, "body.total_expected_hours", "Total expected hours must be at most 10000"],
    [{ start_date: "2026-02-30" }, "body.start_date", "Start date must be a real calendar date"],
    [{ start_date: "1 June" }, "body.start_date", "Start date must be a date as YYYY-MM-DD"],
    [{ name: " " }, "body.name", "Cohort name is required"],
    [{ name: "n".repeat(101) }, "body.name", "Cohort name must be at most 100 characters"],
    [{ name: undefined }, "body.name", "Cohort name is required"],
  ])("refuses %j with 400 naming the field", async (change, path, message) => {
    const res = await call("POST", "/api/cohorts", "admin", { ...valid, ...change });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ error: string; details: Array<{ path: string; message: string }> }>();
    expect(body.details.map((d) => d.path)).toContain(path);
    expect(body.details.find((d) => d.path === path)?.message).toBe(message);
  });

  it.each(["districtAB", "schoolA"] as WorldUserKey[])("refuses %s with 403", async (user) => {
    expect((await call("POST", "/api/cohorts", user, valid)).statusCode).toBe(403);
  });
});

describe("PATCH /api/cohorts/:id", () => {
  it("edits a cohort and records before and after", async () => {
    const created = (await call("POST", "/api/cohorts", "admin", { ...valid, name: "Autumn 2026" })).json().data;
    const res = await call("PATCH", `/api/cohorts/${created.id}`, "superAdmin", {
      name: "Autumn 2026 (B)",
      program_type: "Projects",
      end_date: "2026-08-28",
      total_expected_hours: 200.5,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      name: "Autumn 2026 (B)",
      program_type: "Projects",
      start_date: "2026-06-01",
      end_date: "2026-08-28",
      total_expected_hours: 200.5,
      week_count: 13,
    });
    const [row] = (await listChanges(t.db, { entity: "cohort" })).filter((r) => r.entity_id === String(created.id));
    expect(row).toMatchObject({
      action: "cohort.updated",
      actor_id: w.users.superAdmin.id,
      before: { name: "Autumn 2026", program_type: "Internship (6 week)", end_date: "2026-07-10", total_expected_hours: 120 },
      after: { name: "Autumn 2026 (B)", program_type: "Projects", end_date: "2026-08-28", total_expected_hours: 200.5 },
    });
  });

  it("checks a date sent alone against the stored other date", async () => {
    const id = w.cohorts.open.id; // 2025-01-06 to 2025-03-28
    const end = await call("PATCH", `/api/cohorts/${id}`, "admin", { end_date: "2025-01-01" });
    expect(end.statusCode).toBe(400);
    expect(end.json().details).toEqual([{ path: "body.end_date", message: "End date must be after the start date" }]);
    const start = await call("PATCH", `/api/cohorts/${id}`, "admin", { start_date: "2025-04-01" });
    expect(start.statusCode).toBe(400);
    expect(start.json().details).toEqual([{ path: "body.start_date", message: "Start date must be before the end date" }]);
    const both = await call("PATCH", `/api/cohorts/${id}`, "admin", { start_date: "2025-03-01", end_date: "2025-02-01" });
    expect(both.statusCode).toBe(400);
    expect(both.json().details[0].path).toBe("body.end_date");
  });

  it("keeps the cohort's students in the count", async () => {
    const res = await call("PATCH", `/api/cohorts/${w.cohorts.open.id}`, "admin", { total_expected_hours: 90 });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ student_count: 5, total_expected_hours: 90 });
  });

  it("refuses a bad program type and negative hours with 400 naming the field", async () => {
    const bad = await call("PATCH", `/api/cohorts/${w.cohorts.open.id}`, "admin", { program_type: "Apprenticeship" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe("body.program_type");
    const negative = await call("PATCH", `/api/cohorts/${w.cohorts.open.id}`, "admin", { total_expected_hours: -5 });
    expect(negative.json().details[0].path).toBe("body.total_expected_hours");
  });

  it("answers 404 for an unknown cohort and 400 for an empty body", async () => {
    const missing = await call("PATCH", "/api/cohorts/999999", "admin", { name: "Nowhere" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe("Cohort not found");
    expect((await call("PATCH", `/api/cohorts/${w.cohorts.open.id}`, "admin", {})).statusCode).toBe(400);
  });

  it.each(["districtAB", "schoolA"] as WorldUserKey[])("refuses %s with 403 and changes nothing", async (user) => {
    expect((await call("PATCH", `/api/cohorts/${w.cohorts.open.id}`, user, { name: "Taken Over" })).statusCode).toBe(403);
    const list = (await call("GET", "/api/cohorts/admin", "admin")).json<{ data: AdminCohortItem[] }>().data;
    expect(list.find((c) => c.id === w.cohorts.open.id)?.name).toBe("Spring Open");
  });
});
