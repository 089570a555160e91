import { REPORT_FILES, type StudentsResponse, type StudentsSummary, type TrendPoint } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { BULK_STUDENTS, pdfPageCount, pdfText, UNICODE_NAMES, useReportWorld } from "../../../test/report-world.js";
import type { WorldUserKey } from "../../../test/dashboard-world.js";

const { t, w, as } = useReportWorld();

const get = (user: WorldUserKey, url: string) => t.app.inject({ method: "GET", url, headers: as[user] });

async function pdfOf(user: WorldUserKey, query = ""): Promise<Buffer> {
  const res = await get(user, `/api/pdf-reports/generate${query}`);
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  return res.rawPayload;
}

/** Spaces collapsed, so table cells compare as words. */
const squash = (text: string) => text.replace(/[ \t]+/g, " ");

describe("GET /api/pdf-reports/generate", () => {
  it("answers a PDF download with the fixed file name", async () => {
    const res = await get("schoolA", "/api/pdf-reports/generate");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="${REPORT_FILES.pdf}"`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    await (await import("node:fs/promises")).writeFile("/tmp/rpt/a.pdf", res.rawPayload);
    await (await import("node:fs/promises")).writeFile("/tmp/rpt/admin.pdf", await pdfOf("admin"));
  });
});
