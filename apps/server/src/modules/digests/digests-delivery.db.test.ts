import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { manualClock } from "../../lib/clock.js";
import { insertAlertRow } from "../../../test/digest-alert-rows.js";
import { buildCohort, buildSchool, buildStudent, buildUser, type BuiltUser } from "../../../test/factories.js";
import { useSmtpTestServer, type ReceivedMail } from "../../../test/smtp-test-server.js";
import { createTestApp, type TestApp, useTestApp } from "../../../test/test-app.js";
import { verifyAccessToken } from "../auth/access-tokens.js";
import { digestTick } from "./digest-scheduler.js";
import * as repo from "./digests.repository.js";
import { runDigestWeek } from "./digests.service.js";
import { verifyUnsubscribeToken } from "./unsubscribe-token.js";

// Monday 12 January 2026, 08:00 London (winter: UTC): the week's digest is due.
const WEEK = "2026-01-12";
const clock = manualClock(new Date("2026-01-12T08:00:00Z"));
const daysAgo = (n: number) => new Date(clock.now().getTime() - n * 86_400_000);
const fast = { backoffMs: 1 };

const smtp = useSmtpTestServer();
const t = useTestApp(() => ({ mailer: smtp.mailer, clock }));

const mailsTo = (user: BuiltUser): ReceivedMail[] => smtp.messages.filter((m) => m.to.includes(user.email));
const headersOf = (raw: string) => raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, " ");

let riverside: BuiltUser;
let district: BuiltUser;
let admin: BuiltUser;
let quiet: BuiltUser;
let optedOut: BuiltUser;
let riversideStudent: number;

beforeAll(async () => {
  const db = t.db;
  const [river, oak, elm] = [await buildSchool(db, { name: "Riverside" }), await buildSchool(db, { name: "Oak Hill" }), await buildSchool(db, { name: "Elm" })];
  const cohort = await buildCohort(db, { name: "Spring 2026" });
  const ann = await buildStudent(db, { schoolId: river.id, firstName: "Ann", lastName: "Archer", cohortIds: [cohort.id] });
  const bob = await buildStudent(db, { schoolId: river.id, firstName: "Bob", lastName: "Baker", cohortIds: [cohort.id] });
  const cy = await buildStudent(db, { schoolId: oak.id, firstName: "Cy", lastName: "Cole", cohortIds: [cohort.id] });
  riversideStudent = ann.id;
  // Listed: new this week (urgent and warning at Riverside, info at Oak Hill), and an old one escalated this week.
  await insertAlertRow(db, { studentId: bob.id, cohortId: cohort.id, rule: "flags", severity: "warning", openedAt: daysAgo(2), evidence: "3 flags in week 2 (2026-01-05 to 2026-01-09)." });
  await insertAlertRow(db, { studentId: ann.id, cohortId: cohort.id, severity: "urgent", openedAt: daysAgo(1) });
  await insertAlertRow(db, { studentId: cy.id, cohortId: cohort.id, rule: "missing_from_reports", severity: "info", openedAt: daysAgo(3), evidence: "In none of week 2's reports." });
  await insertAlertRow(db, { studentId: cy.id, cohortId: cohort.id, rule: "attendance_band", severity: "warning", openedAt: daysAgo(30), escalatedAt: daysAgo(2), evidence: "Missed 12 % of meetings (chronic) on 2026-01-06." });
  // Not listed: old and quiet, resolved, and an ended episode.
  await insertAlertRow(db, { studentId: ann.id, cohortId: cohort.id, rule: "low_hours", openedAt: daysAgo(20), evidence: "OLD-QUIET" });
  await insertAlertRow(db, { studentId: bob.id, cohortId: cohort.id, rule: "consecutive_misses", state: "resolved", openedAt: daysAgo(1), evidence: "RESOLVED-ONE" });
  await insertAlertRow(db, { studentId: cy.id, cohortId: cohort.id, rule: "target_out_of_reach", openedAt: daysAgo(1), conditionEndedAt: daysAgo(0.5), evidence: "ENDED-ONE" });

  riverside = await buildUser(db, { role: "school_user", schoolId: river.id });
  district = await buildUser(db, { role: "district_user", schoolIds: [river.id, oak.id] });
  admin = await buildUser(db, { role: "admin" });
  quiet = await buildUser(db, { role: "school_user", schoolId: elm.id });
  optedOut = await buildUser(db, { role: "school_user", schoolId: river.id });
  await db.updateTable("users").set({ digest_enabled: false }).where("id", "=", optedOut.id).execute();
});

describe("the weekly digest run", () => {
  let second: TestApp;
  afterAll(() => second?.close());

  it("sends each user the new and escalated alerts of their scope, exactly once across two instances racing the same week", async () => {
    second = await createTestApp({ database: t.database, mailer: smtp.mailer, clock });
    const [a, b] = await Promise.all([runDigestWeek(t.ctx, WEEK, { delivery: fast }), runDigestWeek(second.ctx, WEEK, { delivery: fast })]);
    expect(a.sent + b.sent).toBe(3);
    for (const user of [riverside, district, admin]) expect(mailsTo(user), user.username).toHaveLength(1);
    // Nothing in scope → no mail; opted out → no mail.
    expect(mailsTo(quiet)).toHaveLength(0);
    expect(mailsTo(optedOut)).toHaveLength(0);
    expect(await repo.readDelivery(t.db, quiet.id, WEEK)).toMatchObject({ alerts: 0 });
    expect((await repo.readDelivery(t.db, quiet.id, WEEK))?.sent_at).not.toBeNull();
  });

  it("lists them by school, urgent first, with the evidence's dates and a link to each student", async () => {
    const school = mailsTo(riverside)[0] as ReceivedMail;
    expect(school.subject).toBe("Tally weekly digest: 2 alerts new or escalated");
    expect(school.text).not.toContain("Oak Hill");
    expect(school.text.indexOf("Urgent")).toBeLessThan(school.text.indexOf("Warning"));
    expect(school.text).toContain("mentor on 2026-01-05, advisor on 2026-01-06");
    expect(school.text).toContain(`http://localhost:3000/dashboard?student=${riversideStudent}`);
    const all = mailsTo(district)[0] as ReceivedMail;
    expect(all.text.indexOf("== Oak Hill ==")).toBeLessThan(all.text.indexOf("== Riverside =="));
    expect(all.text).toContain("escalated 2026-01-10");
    expect(all.text).toContain("Missed 12 % of meetings (chronic) on 2026-01-06.");
    for (const hidden of ["OLD-QUIET", "RESOLVED-ONE", "ENDED-ONE"]) expect(all.text).not.toContain(hidden);
  });

  it("carries the one-click unsubscribe headers (RFC 8058) and no token but the unsubscribe link's", async () => {
    const mail = mailsTo(riverside)[0] as ReceivedMail;
    const headers = headersOf(mail.raw);
    const link = /^List-Unsubscribe: <(http:\/\/localhost:3000\/api\/digests\/unsubscribe\?token=[^>]+)>/im.exec(headers)?.[1];
    expect(link).toBeDefined();
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/im);
    expect(mail.text).not.toContain(riverside.password);
    const tokens = mail.text.match(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g) ?? [];
    expect(tokens.length).toBe(1);
    const token = tokens[0] as string;
    expect(await verifyUnsubscribeToken(t.ctx.config.secretKey, token, clock.now())).toEqual({ userId: riverside.id });
    // It is no session token: the API refuses it.
    await expect(verifyAccessToken(t.ctx.config.secretKey, clock.now(), token)).rejects.toThrow();
    const res = await t.app.inject({ method: "GET", url: "/api/auth/profile", headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(401);
  });

  it("sends nothing again after a restart, nor on the scheduler's next tick", async () => {
    const count = smtp.messages.length;
    await second.close();
    second = await createTestApp({ database: t.database, mailer: smtp.mailer, clock });
    expect(await runDigestWeek(second.ctx, WEEK, { delivery: fast })).toEqual({ sent: 0, empty: 0, failed: 0 });
    expect(await digestTick(second.ctx)).toEqual({ sent: 0, empty: 0, failed: 0 });
    expect(smtp.messages.length).toBe(count);
  });

  it("retries a failing SMTP send within the run, and a claimed but unsent digest on a later tick, never twice", async () => {
    const db = t.db;
    const school = await buildSchool(db, { name: "Willow" });
    const cohort = await buildCohort(db);
    const student = await buildStudent(db, { schoolId: school.id, cohortIds: [cohort.id] });
    await insertAlertRow(db, { studentId: student.id, cohortId: cohort.id, openedAt: daysAgo(1) });
    const first = await buildUser(db, { role: "school_user", schoolId: school.id });
    const send = vi.spyOn(t.ctx.mailer, "send");
    try {
      // Two failures, then it goes through in the same run.
      send.mockRejectedValueOnce(new Error("421 busy")).mockRejectedValueOnce(new Error("421 busy"));
      expect(await runDigestWeek(t.ctx, WEEK, { delivery: fast })).toMatchObject({ sent: 1, failed: 0 });
      expect(mailsTo(first)).toHaveLength(1);
      expect(await repo.readDelivery(db, first.id, WEEK)).toMatchObject({ attempts: 3, last_error: null });

      // Three failures: left claimed and unsent for a later tick.
      const later = await buildUser(db, { role: "school_user", schoolId: school.id });
      send.mockRejectedValueOnce(new Error("451 later")).mockRejectedValueOnce(new Error("451 later")).mockRejectedValueOnce(new Error("451 later"));
      expect(await runDigestWeek(t.ctx, WEEK, { delivery: fast })).toMatchObject({ sent: 0, failed: 1 });
      expect(await repo.readDelivery(db, later.id, WEEK)).toMatchObject({ attempts: 3, last_error: "451 later", sent_at: null });
      // Its claim is fresh: another instance's run leaves it alone.
      expect(await runDigestWeek(t.ctx, WEEK, { delivery: fast })).toMatchObject({ sent: 0 });
      clock.advance(11 * 60_000);
      expect(await digestTick(t.ctx)).toMatchObject({ sent: 1 });
      expect(mailsTo(later)).toHaveLength(1);
      expect(await repo.readDelivery(db, later.id, WEEK)).toMatchObject({ attempts: 4, last_error: null });
      clock.advance(11 * 60_000);
      expect(await digestTick(t.ctx)).toMatchObject({ sent: 0 });
      expect(mailsTo(later)).toHaveLength(1);
      expect(mailsTo(first)).toHaveLength(1);
    } finally {
      send.mockRestore();
    }
  });
});
