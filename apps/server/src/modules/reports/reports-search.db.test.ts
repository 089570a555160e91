import { type ReportDataResponse, REPORT_FILES } from "@tally/contract";
import { describe, expect, it } from "vitest";
import type { WorldUserKey } from "../../../test/dashboard-world.js";
import { parseCleanCsv } from "../../../test/messy-csv.js";
import { pdfText, useReportWorld } from "../../../test/report-world.js";
import { useSmtpTestServer } from "../../../test/smtp-test-server.js";
import { listChanges } from "../audit/audit.service.js";

// Issue 29: an export of a search holds what the dashboard's search shows, read the same way
// (accents and case folded, "Last, First"), within the caller's scope, and says so.

const smtp = useSmtpTestServer();
const { t, as } = useReportWorld({ mailer: { kind: "smtp", send: (m) => smtp.mailer.send(m) } });

const get = (user: WorldUserKey, url: string) => t.app.inject({ method: "GET", url, headers: as[user] });

/** The "First Last" of every row of the CSV. */
async function csvNames(user: WorldUserKey, query: string): Promise<string[]> {
  const res = await get(user, `/api/reports/students.csv?${query}`);
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers["content-disposition"]).toBe(`attachment; filename="${REPORT_FILES.csv}"`);
  const { rows } = parseCleanCsv(res.rawPayload.toString("utf8").replace(/^\uFEFF/, ""));
  return rows.map((r) => `${r[0]} ${r[1]}`.normalize("NFC"));
}

describe("exports of a search", () => {
  it("CSV: only the students the search finds, accents folded, either name order", async () => {
    expect(await csvNames("admin", "q=muller")).toEqual(["Zoë Müller"]);
    expect(await csvNames("admin", `q=${encodeURIComponent("Álvarez, José")}`)).toEqual(["José Álvarez"]);
    expect(await csvNames("admin", "q=jose%20alvarez")).toEqual(["José Álvarez"]);
    expect(await csvNames("admin", "q=nobody-by-this-name")).toEqual([]);
  });

  it("CSV: the search stays inside the caller's scope", async () => {
    expect(await csvNames("schoolA", "q=muller")).toEqual(["Zoë Müller"]);
    expect(await csvNames("schoolB", "q=muller")).toEqual([]);
  });

  it("report data: the same students and totals as the search", async () => {
    const data = (await get("admin", "/api/reports/data?q=MULLER")).json<ReportDataResponse>();
    expect(data.students.map((s) => s.last_name.normalize("NFC"))).toEqual(["Müller"]);
    expect(data.summary.studentCount).toBe(1);
  });

  it("PDF: names the search in its header and lists only the students it finds", async () => {
    const res = await get("admin", "/api/pdf-reports/generate?q=muller");
    expect(res.statusCode).toBe(200);
    const text = (await pdfText(res.rawPayload)).replace(/[ \t]+/g, " ").normalize("NFC");
    expect(text).toContain("Search: muller");
    expect(text).toContain("Zoë Müller");
    expect(text).not.toContain("Álvarez");
    expect(text).not.toContain("Pupil001");
    const plain = (await pdfText((await get("admin", "/api/pdf-reports/generate")).rawPayload)).replace(/[ \t]+/g, " ");
    expect(plain).not.toContain("Search:");
  });

  it("records the search with the export in the audit table", async () => {
    expect((await get("admin", "/api/reports/students.csv?q=muller")).statusCode).toBe(200);
    const rows = await listChanges(t.db, { entity: "student_data" });
    const after = rows.map((r) => (typeof r.after === "string" ? JSON.parse(r.after) : r.after));
    expect(after).toContainEqual(expect.objectContaining({ format: "csv", filters: expect.objectContaining({ q: "muller" }) }));
  });

  it("e-mail: the attached report is of the search, named for it", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/email/send-report",
      headers: as.admin,
      payload: { recipient: "search@example.test", subject: "Müller", q: "muller" },
    });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await smtp.waitForMessage((m) => m.to.includes("search@example.test"));
    expect(mail.text).toContain("Search: muller");
    expect(mail.raw).toMatch(/filename="?Attendance-all-cohorts-all-schools-search-muller-\d{4}-\d\d-\d\d\.pdf/);
  });

  it("refuses a search longer than 200 characters with a clear 400", async () => {
    const res = await get("admin", `/api/reports/students.csv?q=${"a".repeat(201)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("VALIDATION_ERROR");
  });
});
