import { REPORT_LIMITS, REPORT_MAX_RECIPIENTS, REPORT_MESSAGES, type StudentsSummary } from "@tally/contract";
import { describe, expect, it } from "vitest";
import type { Mailer } from "../../lib/mailer.js";
import { useSmtpTestServer } from "../../../test/smtp-test-server.js";
import type { WorldUserKey } from "../../../test/dashboard-world.js";
import { pdfText, UNICODE_NAMES, useReportWorld } from "../../../test/report-world.js";
import { listChanges, recordChange } from "../audit/audit.service.js";
import { REPORT_EMAIL_ENTITY } from "./report-email.js";

const smtp = useSmtpTestServer();
// The real SMTP mailer, failing on purpose for one address (the 502 path).
const mailer: Mailer = {
  kind: "smtp",
  send: (m) => (m.to === "broken@example.test" ? Promise.reject(new Error("451 try later")) : smtp.mailer.send(m)),
};
const { t, w, as } = useReportWorld({ mailer });

const send = (user: WorldUserKey, payload: object) =>
  t.app.inject({ method: "POST", url: "/api/email/send-report", headers: as[user], payload });

/** The attachments of a raw MIME message: file name, content type and decoded bytes. */
function attachmentsOf(raw: string): Array<{ filename: string; type: string; content: Buffer }> {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) return [];
  const out = [];
  for (const part of raw.split(`--${boundary}`)) {
    const at = part.search(/\r?\n\r?\n/);
    if (at === -1) continue;
    const head = part.slice(0, at).replace(/\r?\n[ \t]+/g, " ");
    const filename = /filename="?([^";\r\n]+)"?/i.exec(head)?.[1];
    if (!filename) continue;
    const type = /content-type:\s*([^;\r\n]+)/i.exec(head)?.[1]?.trim() ?? "";
    out.push({ filename, type, content: Buffer.from(part.slice(at).replace(/\s+/g, ""), "base64") });
  }
  return out;
}

describe("POST /api/email/send-report", () => {
  it("needs a signed-in user", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/email/send-report", payload: { recipient: "a@example.test" } });
    expect(res.statusCode).toBe(401);
  });

  it("sends the report of the chosen filters over SMTP with the PDF attached", async () => {
    const res = await send("schoolA", {
      recipient: "funder@example.test",
      recipientName: "Fiona Funder",
      subject: "Alder High attendance",
      content: "Here is this term's report.",
      cohortId: w.cohorts.open.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: REPORT_MESSAGES.emailSent });

    const mail = await smtp.waitForMessage((m) => m.to.includes("funder@example.test"));
    expect(mail.subject).toBe("Alder High attendance");
    expect(mail.text).toContain("Hello Fiona Funder,");
    expect(mail.text).toContain("Here is this term's report.");
    expect(mail.text).toContain("School: Alder High");
    expect(mail.text).toContain("Cohort: Spring Open");
    const [pdf, ...others] = attachmentsOf(mail.raw);
    expect(others).toEqual([]);
    // Named for its filters and the day it was made, as the web app names a saved PDF.
    expect(pdf?.filename).toBe(`Attendance-Spring-Open-all-schools-${today()}.pdf`);
    expect(pdf?.type).toBe("application/pdf");
    expect(pdf?.content.subarray(0, 5).toString()).toBe("%PDF-");
    // The attached PDF is the caller's report of those filters.
    const text = (await pdfText(pdf?.content ?? Buffer.alloc(0))).replace(/[ \t]+/g, " ");
    expect(text).toContain("Cohort: Spring Open");
    const summary = (await t.app.inject({ method: "GET", url: `/api/students/summary?cohortId=${w.cohorts.open.id}`, headers: as.schoolA }))
      .json<StudentsSummary>();
    expect(text).toMatch(new RegExp(`\\b${summary.studentCount}\\s+${summary.cohortCount}\\s+${summary.teamCount}\\b`));
    expect(text.normalize("NFC")).toContain(`${UNICODE_NAMES[1].firstName} ${UNICODE_NAMES[1].lastName}`);
  });

  it("goes to several recipients and copies, replies go to the sender, signed once with the sender's name", async () => {
    const res = await send("admin", {
      recipient: "first@example.test, second@example.test;third@example.test",
      cc: ["boss@example.test", "first@example.test"],
      subject: "Several",
      content: "Please find attached the attendance report for All schools.",
    });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await smtp.waitForMessage((m) => m.to.includes("second@example.test"));
    // Each address once: the envelope holds To and Cc, the headers say which is which.
    expect([...mail.to].sort()).toEqual(["boss@example.test", "first@example.test", "second@example.test", "third@example.test"]);
    const headers = mail.raw.slice(0, mail.raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, " ");
    expect(headers).toMatch(/^To: first@example\.test, second@example\.test, third@example\.test$/im);
    expect(headers).toMatch(/^Cc: boss@example\.test, first@example\.test$/im);
    expect(headers).toMatch(new RegExp(`^Reply-To: ${w.users.admin.email.replace(/\./g, "\\.")}$`, "im"));
    expect(headers).toMatch(/^From: .*no-reply@tally\.test/im);
    // The suggested message says the report is attached; the mail does not say it a second time.
    expect(mail.text.match(/please find/gi)).toHaveLength(1);
    expect(mail.text.match(/report/gi)).toHaveLength(1);
    expect(mail.text).toContain(`Attached: Attendance-all-cohorts-all-schools-${today()}.pdf`);
    expect(mail.text).toMatch(new RegExp(`\\nBest regards,\\r?\\n${w.users.admin.username}\\s*$`));
    expect(mail.text.match(/Best regards/g)).toHaveLength(1);
    expect(attachmentsOf(mail.raw).map((a) => a.filename)).toEqual([`Attendance-all-cohorts-all-schools-${today()}.pdf`]);
  });

  it("names the team and school of the report in the attachment's name", async () => {
    const res = await send("admin", { recipient: "named@example.test", schoolId: w.schools.a.id, cohortId: w.cohorts.open.id });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await smtp.waitForMessage((m) => m.to.includes("named@example.test"));
    expect(attachmentsOf(mail.raw)[0]?.filename).toBe(`Attendance-Spring-Open-Alder-High-${today()}.pdf`);
  });

  it("sends the message as plain text only: markup from the client is never HTML", async () => {
    const content = '<b>Bold</b> <script>alert("x")</script> & <a href="http://evil.test">link</a>';
    expect((await send("admin", { recipient: "markup@example.test", subject: "Markup", content })).statusCode).toBe(200);
    const mail = await smtp.waitForMessage((m) => m.to.includes("markup@example.test"));
    expect(mail.text).toContain(content);
    expect(mail.raw).not.toMatch(/content-type:\s*text\/html/i);
  });

  it("keeps the subject on one header line", async () => {
    expect((await send("admin", { recipient: "header@example.test", subject: "Report\r\nBcc: victim@example.test" })).statusCode).toBe(200);
    const mail = await smtp.waitForMessage((m) => m.to.includes("header@example.test"));
    expect(mail.to).toEqual(["header@example.test"]);
    expect(mail.subject).toBe("Report Bcc: victim@example.test");
  });

  it.each([
    [{ recipient: "" }, REPORT_MESSAGES.emailRequired],
    [{}, REPORT_MESSAGES.emailRequired],
    [{ recipient: " , ; " }, REPORT_MESSAGES.emailRequired],
    [{ recipient: "not-an-address" }, 'To: "not-an-address" is not a valid email address'],
    [{ recipient: "a@b.test, c@d" }, 'To: "c@d" is not a valid email address'],
    [{ recipient: ["a@b.test", "x y@z.test"] }, 'To: "x" is not a valid email address'],
    [{ recipient: "a@b.test", cc: "boss@example.test; nope" }, 'Cc: "nope" is not a valid email address'],
    [{ recipient: "a@b.test", cc: 42 }, "Cc must be e-mail addresses"],
    [
      { recipient: Array.from({ length: REPORT_MAX_RECIPIENTS }, (_, i) => `to${i}@example.test`), cc: "one-more@example.test" },
      `At most ${REPORT_MAX_RECIPIENTS} addresses, To and Cc together`,
    ],
  ])("refuses %o with %s", async (payload, message) => {
    const res = await send("admin", payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(message);
  });

  it("records each send in the audit table", async () => {
    expect((await send("districtAB", { recipient: "audit@example.test", subject: "Audit me", schoolId: w.schools.b.id })).statusCode).toBe(200);
    const rows = await listChanges(t.db, { entity: REPORT_EMAIL_ENTITY });
    const row = rows.find((r) => r.actor_id === w.users.districtAB.id);
    expect(row).toBeDefined();
    expect(row?.action).toBe("send");
    expect(row?.entity_id).toBe(String(w.users.districtAB.id));
    const after = typeof row?.after === "string" ? JSON.parse(row.after) : row?.after;
    expect(after).toMatchObject({ recipient: "audit@example.test", subject: "Audit me", filters: { schoolId: w.schools.b.id } });
  });

  it("answers the spec's error text when the mail cannot be sent", async () => {
    const res = await send("admin", { recipient: "broken@example.test" });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ error: REPORT_MESSAGES.emailError, code: "INTERNAL" });
  });
});

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

const earlier = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe("the e-mail rate limit", () => {
  const seed = async (actorId: number, count: number, at: Date) => {
    for (let i = 0; i < count; i++) {
      await recordChange(t.db, { actorId, action: "send", entity: REPORT_EMAIL_ENTITY, entityId: actorId, before: null, after: null, at });
    }
  };

  it(`allows ${REPORT_LIMITS.emailsPerHour} sends an hour, then answers 429 with a clear text`, async () => {
    const user = w.users.schoolB;
    await seed(user.id, REPORT_LIMITS.emailsPerHour - 2, earlier(30));
    expect((await send("schoolB", { recipient: "limit@example.test" })).statusCode).toBe(200);
    expect((await send("schoolB", { recipient: "limit@example.test" })).statusCode).toBe(200);
    const refused = await send("schoolB", { recipient: "limit@example.test" });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: REPORT_MESSAGES.emailRateLimited, code: "RATE_LIMITED" });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // Another user is not held back by it.
    expect((await send("superAdmin", { recipient: "limit@example.test" })).statusCode).toBe(200);
  });

  it("counts the last hour only", async () => {
    const user = w.users.districtNone;
    await seed(user.id, REPORT_LIMITS.emailsPerHour, earlier(61));
    expect((await send("districtNone", { recipient: "hour@example.test" })).statusCode).toBe(200);
  });

  it("says in Retry-After when the oldest send of the hour leaves it, not a flat hour", async () => {
    // districtAB sent one report (the audit test above), now: the oldest is the one seeded here.
    const user = w.users.districtAB;
    const oldest = earlier(50);
    await seed(user.id, 1, oldest);
    await seed(user.id, REPORT_LIMITS.emailsPerHour - 2, earlier(20));
    const before = Date.now();
    const refused = await send("districtAB", { recipient: "retry@example.test" });
    const after = Date.now();
    expect(refused.statusCode).toBe(429);
    const leaves = oldest.getTime() + 3_600_000;
    const seconds = Number(refused.headers["retry-after"]);
    expect(seconds).toBeGreaterThanOrEqual(Math.ceil((leaves - after) / 1000));
    expect(seconds).toBeLessThanOrEqual(Math.ceil((leaves - before) / 1000));
  });

  it("holds when sends arrive at once", async () => {
    const user = w.users.admin;
    const sentBefore = (await listChanges(t.db, { entity: REPORT_EMAIL_ENTITY, limit: 1000 })).filter(
      (r) => r.actor_id === user.id && new Date(r.at).getTime() > Date.now() - 3_600_000,
    ).length;
    await seed(user.id, REPORT_LIMITS.emailsPerHour - 3 - sentBefore, earlier(5));
    const results = await Promise.all(Array.from({ length: 6 }, () => send("admin", { recipient: "burst@example.test" })));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 200, 200, 429, 429, 429]);
  });
});
