import type { Alert, AlertRule } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { buildAlert } from "../../../test/alert-factory.js";
import { useDashboardWorld, type WorldUserKey } from "../../../test/dashboard-world.js";
import { buildUser } from "../../../test/factories.js";

const { t, w, as } = useDashboardWorld();

const post = (user: WorldUserKey, url: string, payload: unknown = {}) => t.app.inject({ method: "POST", url, headers: as[user], payload: payload as object });

const RULES: AlertRule[] = ["attendance_band", "consecutive_misses", "target_out_of_reach", "flags", "missing_from_reports", "low_hours"];
let ruleTurn = 0;
/** A fresh live alert (each on its own rule and student pair, so live episodes never collide). */
async function alertOf(student: keyof typeof w.students, state: Alert["state"] = "open") {
  const s = w.students[student];
  const cohortId = s.cohortIds[0] ?? w.cohorts.open.id;
  const rule = RULES[ruleTurn++ % RULES.length] as AlertRule;
  // Older live episodes of the same key are closed, so the factory never meets the unique index.
  await t.db.updateTable("alerts").set({ condition_ended_at: new Date() }).where("student_id", "=", s.id).where("rule", "=", rule).where("cohort_id", "=", cohortId).where("condition_ended_at", "is", null).execute();
  return buildAlert(t.db, { studentId: s.id, cohortId, rule, state, level: 3 });
}

const eventsOf = (id: number) => t.db.selectFrom("alert_events").selectAll().where("alert_id", "=", id).orderBy("id").execute();
const auditOf = (id: number) => t.db.selectFrom("audit_log").selectAll().where("entity", "=", "alert").where("entity_id", "=", String(id)).orderBy("id").execute();
const rowOf = (id: number) => t.db.selectFrom("alerts").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("acknowledge, resolve, dismiss", () => {
  it("acknowledges an open alert: who and when, a timeline event and an audit row", async () => {
    const alert = await alertOf("aMover");
    const res = await post("schoolA", `/api/alerts/${alert.id}/acknowledge`);
    expect(res.statusCode).toBe(200);
    expect(res.json<Alert>()).toMatchObject({ id: alert.id, state: "acknowledged" });
    const row = await rowOf(alert.id);
    expect(row.state_changed_by).toBe(w.users.schoolA.id);
    expect(row.state_changed_at).not.toBeNull();
    expect(row.resolved_level).toBeNull();
    expect((await eventsOf(alert.id)).map((e) => [e.kind, e.user_id])).toEqual([["acknowledged", w.users.schoolA.id]]);
    const audit = await auditOf(alert.id);
    expect(audit.map((a) => [a.action, a.actor_id])).toEqual([["alert.acknowledged", w.users.schoolA.id]]);
    // Only an open alert can be acknowledged.
    const again = await post("schoolA", `/api/alerts/${alert.id}/acknowledge`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatch(/acknowledged.*only an open alert/);
  });

  it("resolves with a note and keeps the level it was resolved at", async () => {
    const alert = await alertOf("aTwoCohorts", "acknowledged");
    const res = await post("districtAB", `/api/alerts/${alert.id}/resolve`, { note: "  Called the family  " });
    expect(res.statusCode).toBe(200);
    expect(res.json<Alert>().state).toBe("resolved");
    expect((await rowOf(alert.id)).resolved_level).toBe(3);
    expect((await eventsOf(alert.id)).map((e) => [e.kind, e.note])).toEqual([["resolved", "Called the family"]]);
    const audit = await auditOf(alert.id);
    expect(audit.map((a) => a.action)).toEqual(["alert.resolved"]);
    expect(audit[0]?.after).toMatchObject({ state: "resolved", note: "Called the family" });
    const twice = await post("districtAB", `/api/alerts/${alert.id}/dismiss`, { reason: "No" });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toContain("is resolved");
  });

  it("dismisses with a reason", async () => {
    const alert = await alertOf("bOpen");
    const res = await post("admin", `/api/alerts/${alert.id}/dismiss`, { reason: "Known absence" });
    expect(res.statusCode).toBe(200);
    expect(res.json<Alert>().state).toBe("dismissed");
    expect((await rowOf(alert.id)).resolved_level).toBe(3);
    expect((await eventsOf(alert.id)).map((e) => [e.kind, e.note, e.user_id])).toEqual([["dismissed", "Known absence", w.users.admin.id]]);
    expect((await auditOf(alert.id)).map((a) => a.action)).toEqual(["alert.dismissed"]);
  });

  it("refuses a missing note or reason with a 400 naming it, and changes nothing", async () => {
    const alert = await alertOf("aMover");
    for (const [path, payload, field] of [["resolve", {}, "note"], ["resolve", { note: "   " }, "note"], ["dismiss", { reason: "" }, "reason"]] as const) {
      const res = await post("schoolA", `/api/alerts/${alert.id}/${path}`, payload);
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain(field);
    }
    expect((await rowOf(alert.id)).state).toBe("open");
    expect(await eventsOf(alert.id)).toEqual([]);
  });

  it("answers 404 for another school's alert, a hidden cohort's and an unknown id, alike, and writes nothing", async () => {
    const other = await alertOf("bOpen");
    const hidden = await alertOf("aAllHidden");
    const unknown = await post("schoolA", "/api/alerts/2147483000/acknowledge");
    expect(unknown.statusCode).toBe(404);
    for (const id of [other.id, hidden.id]) {
      for (const [path, payload] of [["acknowledge", {}], ["resolve", { note: "x" }], ["dismiss", { reason: "x" }], ["assign", { userId: null }]] as const) {
        const res = await post("schoolA", `/api/alerts/${id}/${path}`, payload);
        expect(res.statusCode, `${path} ${id}`).toBe(404);
        expect(res.json()).toEqual(unknown.json());
      }
      expect((await rowOf(id)).state).toBe("open");
      expect(await eventsOf(id)).toEqual([]);
      expect(await auditOf(id)).toEqual([]);
    }
    // The demo school's alerts are not an admin's to act on from the everyday list.
    const demo = await alertOf("demo");
    expect((await post("admin", `/api/alerts/${demo.id}/acknowledge`)).statusCode).toBe(404);
  });

  it("needs a signed-in user", async () => {
    const alert = await alertOf("aMover");
    expect((await t.app.inject({ method: "POST", url: `/api/alerts/${alert.id}/acknowledge` })).statusCode).toBe(401);
  });
});

describe("assign", () => {
  it("assigns to an active user who sees the student, and unassigns with null", async () => {
    const alert = await alertOf("aMover");
    const res = await post("admin", `/api/alerts/${alert.id}/assign`, { userId: w.users.districtAB.id });
    expect(res.statusCode).toBe(200);
    expect(res.json<Alert>()).toMatchObject({ assigneeId: w.users.districtAB.id, assigneeName: w.users.districtAB.username });
    // Removing someone else's assignment is an admin's (issue 41): a school user's try is refused below.
    const cleared = await post("admin", `/api/alerts/${alert.id}/assign`, { userId: null });
    expect(cleared.json<Alert>()).toMatchObject({ assigneeId: null, assigneeName: null });
    expect((await eventsOf(alert.id)).map((e) => [e.kind, e.user_id, e.note])).toEqual([
      ["assigned", w.users.admin.id, `assigned to ${w.users.districtAB.username}`],
      ["assigned", w.users.admin.id, "unassigned"],
    ]);
    const audit = await auditOf(alert.id);
    expect(audit.map((a) => [a.action, a.after])).toEqual([
      ["alert.assigned", { assigneeId: w.users.districtAB.id }],
      ["alert.assigned", { assigneeId: null }],
    ]);
  });

  it("lets a school user take an alert of their school themselves (the web's 'Assign to me')", async () => {
    const alert = await alertOf("aMover");
    const res = await post("schoolA", `/api/alerts/${alert.id}/assign`, { userId: w.users.schoolA.id });
    expect(res.statusCode).toBe(200);
    expect(res.json<Alert>()).toMatchObject({ assigneeId: w.users.schoolA.id });
    const mine = (await t.app.inject({ method: "GET", url: "/api/alerts?assignedToMe=true", headers: as.schoolA })).json<{ data: Alert[] }>();
    expect(mine.data.map((a) => a.id)).toEqual([alert.id]);
    await post("schoolA", `/api/alerts/${alert.id}/assign`, { userId: null });
  });

  it("refuses a user who does not see the student, an inactive one and an unknown one, naming userId", async () => {
    const alert = await alertOf("aMover");
    const inactive = await buildUser(t.db, { role: "school_user", schoolId: w.schools.a.id, isActive: false });
    for (const userId of [w.users.schoolB.id, w.users.districtNone.id, inactive.id, 2147483000]) {
      const res = await post("admin", `/api/alerts/${alert.id}/assign`, { userId });
      expect(res.statusCode, String(userId)).toBe(400);
      expect(res.body).toContain("userId");
    }
    // A hidden cohort's alert cannot go to a school user, who does not see it.
    const hidden = await alertOf("aAllHidden");
    expect((await post("admin", `/api/alerts/${hidden.id}/assign`, { userId: w.users.schoolA.id })).statusCode).toBe(400);
    expect((await rowOf(alert.id)).assignee_id).toBeNull();
  });
});

describe("assign: who may assign whom (issue 41)", () => {
  it("refuses a school user assigning anyone but themselves exactly as an unknown user: same status, same body, for any id", async () => {
    const alert = await alertOf("aMover");
    const inactive = await buildUser(t.db, { role: "school_user", schoolId: w.schools.a.id, isActive: false });
    const unknown = await post("schoolA", `/api/alerts/${alert.id}/assign`, { userId: 2147483000 });
    expect(unknown.statusCode).toBe(400);
    // Walking ids: a super admin, an admin, a colleague who sees the student, one who does not, an inactive one.
    for (const other of [w.users.superAdmin, w.users.admin, w.users.districtAB, w.users.schoolB, inactive]) {
      const res = await post("schoolA", `/api/alerts/${alert.id}/assign`, { userId: other.id });
      expect(res.statusCode, other.username).toBe(unknown.statusCode);
      expect(res.body, other.username).toBe(unknown.body);
      expect(res.body).not.toContain(other.username);
    }
    expect((await rowOf(alert.id)).assignee_id).toBeNull();
    expect(await eventsOf(alert.id)).toEqual([]);
  });

  it("lets a non-admin let go of their own alert only; an admin still assigns and unassigns anyone", async () => {
    const alert = await alertOf("aMover");
    expect((await post("admin", `/api/alerts/${alert.id}/assign`, { userId: w.users.districtAB.id })).statusCode).toBe(200);
    // schoolA sees the student but may neither remove nor take over districtAB's assignment.
    for (const userId of [null, w.users.schoolA.id]) {
      const refused = await post("schoolA", `/api/alerts/${alert.id}/assign`, { userId });
      expect(refused.statusCode, String(userId)).toBe(403);
      expect((await rowOf(alert.id)).assignee_id).toBe(w.users.districtAB.id);
    }
    // The holder lets go of it; then schoolA takes it and lets go of it.
    expect((await post("districtAB", `/api/alerts/${alert.id}/assign`, { userId: null })).statusCode).toBe(200);
    expect((await post("schoolA", `/api/alerts/${alert.id}/assign`, { userId: w.users.schoolA.id })).statusCode).toBe(200);
    expect((await post("schoolA", `/api/alerts/${alert.id}/assign`, { userId: null })).json<Alert>()).toMatchObject({ assigneeId: null });
    // An admin (and a super admin) assigns a colleague and removes it.
    expect((await post("superAdmin", `/api/alerts/${alert.id}/assign`, { userId: w.users.schoolA.id })).json<Alert>()).toMatchObject({ assigneeId: w.users.schoolA.id });
    expect((await post("admin", `/api/alerts/${alert.id}/assign`, { userId: w.users.districtAB.id })).json<Alert>()).toMatchObject({ assigneeId: w.users.districtAB.id });
    expect((await post("admin", `/api/alerts/${alert.id}/assign`, { userId: null })).json<Alert>()).toMatchObject({ assigneeId: null });
  });
});

describe("POST /api/alerts/bulk", () => {
  it("changes the alerts the caller sees and skips the others with the reason", async () => {
    const mine = await alertOf("aMover");
    const acknowledged = await alertOf("aTwoCohorts", "acknowledged");
    const done = await alertOf("aNoCohort", "resolved");
    const other = await alertOf("bOpen");
    const res = await post("schoolA", "/api/alerts/bulk", { ids: [mine.id, acknowledged.id, done.id, other.id, 2147483000], action: "resolve", note: "Met the mentor" });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ updated: number; skipped: Array<{ id: number; reason: string }> }>();
    expect(body.updated).toBe(2);
    expect(body.skipped.map((s) => s.id)).toEqual([done.id, other.id, 2147483000]);
    expect(body.skipped[0]?.reason).toContain("is resolved");
    expect(body.skipped[1]?.reason).toBe(`Alert ${other.id} was not found`);
    for (const id of [mine.id, acknowledged.id]) {
      expect((await rowOf(id)).state).toBe("resolved");
      expect((await eventsOf(id)).map((e) => [e.kind, e.note])).toEqual([["resolved", "Met the mentor"]]);
      expect((await auditOf(id)).map((a) => a.action)).toEqual(["alert.resolved"]);
    }
    expect((await rowOf(other.id)).state).toBe("open");
    expect(await auditOf(other.id)).toEqual([]);
  });

  it("acknowledges and dismisses in bulk", async () => {
    const a = await alertOf("aMover");
    const b = await alertOf("bOpen");
    const ack = (await post("districtAB", "/api/alerts/bulk", { ids: [a.id, b.id], action: "acknowledge" })).json();
    expect(ack).toEqual({ updated: 2, skipped: [] });
    const dismiss = (await post("districtAB", "/api/alerts/bulk", { ids: [a.id, b.id], action: "dismiss", reason: "Moved away" })).json();
    expect(dismiss).toEqual({ updated: 2, skipped: [] });
    expect((await rowOf(b.id)).state).toBe("dismissed");
  });

  it("refuses resolve without a note, dismiss without a reason and a bad body with a 400 naming the field", async () => {
    const a = await alertOf("aMover");
    for (const [payload, field] of [
      [{ ids: [a.id], action: "resolve" }, "note"],
      [{ ids: [a.id], action: "dismiss", note: "wrong field" }, "reason"],
      [{ ids: [], action: "acknowledge" }, "ids"],
      [{ ids: [a.id], action: "reopen" }, "action"],
    ] as const) {
      const res = await post("schoolA", "/api/alerts/bulk", payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.body).toContain(field);
    }
    expect((await rowOf(a.id)).state).toBe("open");
  });
});
