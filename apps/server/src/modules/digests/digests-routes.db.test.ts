import { describe, expect, it } from "vitest";
import { manualClock } from "../../lib/clock.js";
import { insertAlertRow } from "../../../test/digest-alert-rows.js";
import { buildCohort, buildSchool, buildStudent, buildUser } from "../../../test/factories.js";
import { useSmtpTestServer } from "../../../test/smtp-test-server.js";
import { caller, loginAs, useSignedIn, useTestApp } from "../../../test/test-app.js";
import { listChanges } from "../audit/audit.service.js";
import { signAccessToken } from "../auth/access-tokens.js";
import * as repo from "./digests.repository.js";
import { runDigestWeek } from "./digests.service.js";
import { signUnsubscribeToken } from "./unsubscribe-token.js";

const WEEK = "2026-01-12";
const clock = manualClock(new Date("2026-01-12T08:00:00Z"));
const smtp = useSmtpTestServer();
const t = useTestApp(() => ({ mailer: smtp.mailer, clock }));
const call = caller(t);
const admin = useSignedIn(t, { role: "admin" });
const school = useSignedIn(t, { role: "school_user" });

async function userWithAlert(name: string) {
  const s = await buildSchool(t.db, { name: `<b>${name}</b> & Co` });
  const cohort = await buildCohort(t.db);
  const student = await buildStudent(t.db, { schoolId: s.id, firstName: "<script>alert(1)</script>", lastName: "O'Neil", cohortIds: [cohort.id] });
  await insertAlertRow(t.db, { studentId: student.id, cohortId: cohort.id, severity: "urgent", openedAt: new Date("2026-01-11T10:00:00Z") });
  return buildUser(t.db, { role: "school_user", schoolId: s.id });
}

const digestEnabled = async (id: number) =>
  (await t.db.selectFrom("users").select("digest_enabled").where("id", "=", id).executeTakeFirstOrThrow()).digest_enabled;

describe("PUT /api/profile/digest", () => {
  it("turns the signed-in user's digest off and on again, audited", async () => {
    const off = await call("PUT", "/api/profile/digest", school.headers, { enabled: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ enabled: false });
    expect(await digestEnabled(school.user.id)).toBe(false);
    expect((await call("GET", "/api/profile/digest", school.headers)).json()).toEqual({ enabled: false });
    expect((await call("PUT", "/api/profile/digest", school.headers, { enabled: true })).json()).toEqual({ enabled: true });
    const rows = await listChanges(t.db, { entity: "user" });
    expect(rows.filter((r) => r.action === "user.digest.changed" && r.entity_id === String(school.user.id))).toHaveLength(2);
  });

  it("refuses a stranger (401) and a bad body (400 naming the field)", async () => {
    expect((await call("PUT", "/api/profile/digest", {}, { enabled: false })).statusCode).toBe(401);
    const bad = await call("PUT", "/api/profile/digest", school.headers, { enabled: "no" });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("enabled must be true or false");
  });
});

describe("the unsubscribe link", () => {
  it("shows a confirmation on GET (still subscribed), unsubscribes on the one-click POST", async () => {
    const user = await userWithAlert("Link");
    await runDigestWeek(t.ctx, WEEK, { delivery: { backoffMs: 1 } });
    const mail = await smtp.waitForMessage((m) => m.to.includes(user.email));
    const url = new URL(/List-Unsubscribe: <([^>]+)>/i.exec(mail.raw.replace(/\r?\n[ \t]+/g, " "))?.[1] ?? "");
    const path = `${url.pathname}${url.search}`;
    expect(url.pathname).toBe("/api/digests/unsubscribe");

    const page = await t.app.inject({ method: "GET", url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(page.body).toContain('<form method="post"');
    expect(await digestEnabled(user.id)).toBe(true);

    const done = await t.app.inject({
      method: "POST",
      url: path,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain("Unsubscribed");
    expect(await digestEnabled(user.id)).toBe(false);
    const audit = await listChanges(t.db, { entity: "user" });
    expect(audit.find((r) => r.action === "user.digest.changed" && r.entity_id === String(user.id))).toBeDefined();
    // Opted out: another week's run sends this user nothing (not even a claim).
    await runDigestWeek(t.ctx, "2026-01-19");
    expect(await repo.readDelivery(t.db, user.id, "2026-01-19")).toBeUndefined();
  });

  it("refuses a missing, forged or foreign token with a 400, and signs no one in", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/digests/unsubscribe" })).statusCode).toBe(400);
    const forged = await signUnsubscribeToken("another-secret-key-that-is-long-enough-0123", school.user.id, clock.now());
    const access = await signAccessToken(t.ctx.config.secretKey, clock.now(), { userId: school.user.id, sessionVersion: 0, sessionId: "x", providerTwoFactor: false });
    for (const token of [forged, access, "not-a-token"]) {
      const res = await t.app.inject({ method: "POST", url: `/api/digests/unsubscribe?token=${token}` });
      expect(res.statusCode, token).toBe(400);
      expect(res.body).toContain("token: this is not a valid unsubscribe link");
    }
    const page = await t.app.inject({ method: "GET", url: "/api/digests/unsubscribe?token=not-a-token", headers: { accept: "text/html" } });
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain("This link does not work");
    expect(await digestEnabled(school.user.id)).toBe(true);
    const real = await signUnsubscribeToken(t.ctx.config.secretKey, school.user.id, clock.now());
    expect((await call("GET", "/api/auth/profile", { authorization: `Bearer ${real}` })).statusCode).toBe(401);
  });
});

describe("an unsubscribe link's age", () => {
  const DAY_MS = 24 * 60 * 60 * 1000;

  it("works for 60 days; an older one answers with a page saying it has expired and how to unsubscribe on the account page", async () => {
    const user = await buildUser(t.db, { role: "school_user" });
    const recent = await signUnsubscribeToken(t.ctx.config.secretKey, user.id, new Date(clock.now().getTime() - 59 * DAY_MS));
    expect((await t.app.inject({ method: "GET", url: `/api/digests/unsubscribe?token=${recent}`, headers: { accept: "text/html" } })).statusCode).toBe(200);

    const old = await signUnsubscribeToken(t.ctx.config.secretKey, user.id, new Date(clock.now().getTime() - 61 * DAY_MS));
    const page = await t.app.inject({ method: "GET", url: `/api/digests/unsubscribe?token=${old}`, headers: { accept: "text/html" } });
    expect(page.statusCode).toBe(400);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(page.body).toContain("This link has expired");
    expect(page.body).toContain("60 days");
    expect(page.body).toContain('href="http://localhost:3000/account/two-step"');
    expect(page.body).toContain("Weekly digest e-mails");
    expect(page.body).not.toContain("<form");

    const oneClick = await t.app.inject({
      method: "POST",
      url: `/api/digests/unsubscribe?token=${old}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.statusCode).toBe(400);
    expect(oneClick.json()).toMatchObject({ details: [{ path: "token", message: expect.stringContaining("has expired") }] });
    expect(await digestEnabled(user.id)).toBe(true);
  });
});

describe("GET /api/digests/preview and POST /api/digests/test", () => {
  it("shows the admin no working unsubscribe link of the user previewed", async () => {
    const user = await userWithAlert("Unsubscribe preview");
    const body = (await call("GET", `/api/digests/preview?userId=${user.id}`, admin.headers)).json();
    expect(`${body.text}${body.html}`).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
    const link = /(http:\/\/localhost:3000\/api\/digests\/unsubscribe\?token=\S+)/.exec(body.text)?.[1] ?? "";
    expect(link).not.toBe("");
    const { pathname, search } = new URL(link);
    const res = await t.app.inject({
      method: "POST",
      url: `${pathname}${search}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(res.statusCode).toBe(400);
    expect(await digestEnabled(user.id)).toBe(true);
  });

  it("shows an admin any user's next digest, everything escaped in the HTML", async () => {
    const user = await userWithAlert("Preview");
    const res = await call("GET", `/api/digests/preview?userId=${user.id}`, admin.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ userId: user.id, to: user.email, alerts: 1, enabled: true });
    expect(body.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; O&#39;Neil");
    expect(body.html).toContain("&lt;b&gt;Preview&lt;/b&gt; &amp; Co");
    expect(body.html).not.toContain("<script>");
    expect(body.text).toContain("<script>alert(1)</script> O'Neil");
  });

  it("refuses strangers (401), other roles (403), a bad or unknown user id (400, 404)", async () => {
    expect((await call("GET", "/api/digests/preview?userId=1", {})).statusCode).toBe(401);
    expect((await call("GET", "/api/digests/preview?userId=1", school.headers)).statusCode).toBe(403);
    const bad = await call("GET", "/api/digests/preview?userId=abc", admin.headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("userId");
    expect((await call("GET", "/api/digests/preview", admin.headers)).statusCode).toBe(400);
    expect((await call("GET", "/api/digests/preview?userId=999999", admin.headers)).statusCode).toBe(404);
    expect((await call("POST", "/api/digests/test", {})).statusCode).toBe(401);
    expect((await call("POST", "/api/digests/test", school.headers)).statusCode).toBe(403);
  });

  it("sends the admin their own digest now, without counting it as the week's", async () => {
    const own = await buildUser(t.db, { role: "admin" });
    const session = await loginAs(t.app, own);
    const res = await call("POST", "/api/digests/test", session.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ to: own.email });
    const mail = await smtp.waitForMessage((m) => m.to.includes(own.email));
    expect(mail.subject).toMatch(/^\[Test\] Tally weekly digest/);
    expect(mail.text).not.toContain(session.token);
    expect(await repo.readDelivery(t.db, own.id, WEEK)).toBeUndefined();
    const audit = await listChanges(t.db, { entity: "user" });
    expect(audit.find((r) => r.action === "user.digest.test_sent" && r.entity_id === String(own.id))).toBeDefined();
  });
});
