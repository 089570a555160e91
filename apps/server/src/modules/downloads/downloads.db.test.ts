import { LIMITS, MESSAGES } from "@tally/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser } from "../../../test/factories.js";
import { createTestApp, loginAs, type TestApp, useTestApp } from "../../../test/test-app.js";
import { testDatabaseUrl } from "../../config.js";
import { type DatabaseHandle, openDatabase } from "../../db/connection.js";
import { manualClock } from "../../lib/clock.js";

// Downloads of student data and of the audit log (students.csv, the PDF report, the audit
// export) are limited per user: LIMITS.downloadsPerMinute in any rolling minute, counted in
// the database so that every server instance on it shares the count.

const clock = manualClock(new Date("2026-05-04T08:00:00Z"));
const t = useTestApp({ clock });
const SECOND = 1_000;

const CSV = "/api/reports/students.csv";
const PDF = "/api/pdf-reports/generate";
const AUDIT = "/api/audit/export.csv";

async function signedIn(app: TestApp = t) {
  const user = await buildUser(t.db, { role: "super_admin" });
  return (await loginAs(app.app, user)).headers;
}
const download = (url: string, headers: Record<string, string>, app: TestApp = t) => app.app.inject({ method: "GET", url, headers });

describe("the download limit", () => {
  it("takes downloadsPerMinute of any kind in a minute, then answers 429 with the seconds until the oldest leaves the minute", async () => {
    const headers = await signedIn();
    // A refused export is no download.
    expect((await download(`${CSV}?schoolId=2147483000`, headers)).statusCode).toBe(404);
    for (let i = 0; i < LIMITS.downloadsPerMinute; i++) {
      const res = await download(i === 0 ? PDF : i % 2 ? CSV : AUDIT, headers);
      expect(res.statusCode, `download ${i + 1}`).toBe(200);
      clock.advance(SECOND);
    }
    for (const url of [CSV, PDF, AUDIT]) {
      const refused = await download(url, headers);
      expect(refused.statusCode, url).toBe(429);
      expect(refused.json()).toEqual({ error: MESSAGES.tooManyDownloads, code: "RATE_LIMITED" });
      // The first download was 30 s ago: it leaves the minute in 30 s.
      expect(refused.headers["retry-after"]).toBe("30");
    }
    // Refusals are not counted: once the first download has left the minute, one more is taken.
    clock.advance(30 * SECOND);
    expect((await download(CSV, headers)).statusCode).toBe(200);
    const next = await download(CSV, headers);
    expect(next.statusCode).toBe(429);
    expect(next.headers["retry-after"]).toBe("1");
    // Another user is not held back.
    expect((await download(CSV, await signedIn())).statusCode).toBe(200);
  });

  it("does not count the e-mailed report, which keeps its own limit", async () => {
    const headers = await signedIn();
    for (let i = 0; i < LIMITS.downloadsPerMinute - 1; i++) expect((await download(CSV, headers)).statusCode).toBe(200);
    const mailed = await t.app.inject({ method: "POST", url: "/api/email/send-report", headers, payload: { recipient: "funder@example.test" } });
    expect(mailed.statusCode, mailed.body).toBe(200);
    expect((await download(CSV, headers)).statusCode).toBe(200);
    expect((await download(CSV, headers)).statusCode).toBe(429);
  });
});

describe("the download limit on two server instances", () => {
  // As in notifications-instances.db.test.ts: on PostgreSQL the second instance has its own pool;
  // the embedded database belongs to one process, so there the two apps share its handle.
  const databaseUrl = testDatabaseUrl();
  let other: TestApp;
  let secondHandle: DatabaseHandle | undefined;
  beforeAll(async () => {
    if (databaseUrl) {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.db);
      secondHandle = await openDatabase({ databaseUrl, schema: rows[0]?.schema, poolSize: 2 });
    }
    other = await createTestApp({ clock, database: secondHandle ?? t.database });
  });
  afterAll(async () => {
    await other?.close();
    await secondHandle?.close();
  });

  it("is one count, whichever instance serves each download", async () => {
    const headers = await signedIn();
    const half = LIMITS.downloadsPerMinute / 2;
    for (let i = 0; i < half; i++) expect((await download(CSV, headers)).statusCode).toBe(200);
    for (let i = 0; i < LIMITS.downloadsPerMinute - half; i++) expect((await download(AUDIT, headers, other)).statusCode).toBe(200);
    expect((await download(CSV, headers, other)).statusCode).toBe(429);
    expect((await download(AUDIT, headers)).statusCode).toBe(429);
  });

  it("holds when downloads arrive at once", async () => {
    const headers = await signedIn();
    const replies = await Promise.all(
      Array.from({ length: LIMITS.downloadsPerMinute + 10 }, (_, i) => download(CSV, headers, i % 2 ? other : t)),
    );
    const codes = replies.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(LIMITS.downloadsPerMinute);
    expect(codes.filter((c) => c === 429)).toHaveLength(10);
  });
});
