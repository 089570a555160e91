import { REPORT_FILES, type StudentsResponse, type StudentsSummary, type TrendPoint } from "@tally/contract";
import { describe, expect, it } from "vitest";
import type { WorldUserKey } from "../../../test/dashboard-world.js";
import { BULK_STUDENTS, pdfPageCount, pdfText, UNICODE_NAMES, useReportWorld } from "../../../test/report-world.js";

const { t, w, as } = useReportWorld();

const get = (user: WorldUserKey, url: string) => t.app.inject({ method: "GET", url, headers: as[user] });

async function pdfOf(user: WorldUserKey, query = ""): Promise<Buffer> {
  const res = await get(user, `/api/pdf-reports/generate${query}`);
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  return res.rawPayload;
}

/** Runs of spaces as one, so table cells compare as words. */
const squash = (text: string) => text.replace(/[ \t]+/g, " ");

/** The four totals as printed: the numbers line above "Schools Students Cohorts Teams". */
function printedTotals(text: string): StudentsSummary {
  const m = /^\s*([\d,]+)\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)\s*\n\s*Schools\s+Students\s+Cohorts\s+Teams/m.exec(text);
  if (!m) throw new Error(`no totals in:\n${text.slice(0, 800)}`);
  const n = (i: number) => Number((m[i] ?? "").replace(/,/g, ""));
  return { schoolCount: n(1), studentCount: n(2), cohortCount: n(3), teamCount: n(4) };
}

const pct = (v: number | null) => (v === null ? "–" : `${v}%`);
const attended = (p: number | null, l: number | null) => (p === null || l === null ? null : Math.min(100, p + l));

/** The weekly table row the PDF must print for one of the dashboard's trend points. */
function weekRow(p: TrendPoint): string {
  return [
    `Week ${p.week}`,
    pct(p.mentorPresent), pct(p.mentorLate), pct(attended(p.mentorPresent, p.mentorLate)),
    pct(p.advisorPresent), pct(p.advisorLate), pct(attended(p.advisorPresent, p.advisorLate)),
  ].join(" ");
}

describe("GET /api/pdf-reports/generate", () => {
  it("needs a signed-in user", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/pdf-reports/generate" })).statusCode).toBe(401);
  });

  it("answers a PDF download with the fixed file name", async () => {
    const res = await get("schoolA", "/api/pdf-reports/generate");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="${REPORT_FILES.pdf}"`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
  });

  it.each([
    ["schoolA", ""],
    ["districtAB", ""],
    ["admin", ""],
    ["superAdmin", ""],
    ["admin", "schoolId"],
    ["districtAB", "cohortId"],
    ["schoolA", "teamId"],
  ] as const)("prints the dashboard API's totals, weekly figures and students for %s (filter: %s)", async (user, by) => {
    const filter =
      by === "schoolId" ? `school_id=${w.schools.b.id}` : by === "cohortId" ? `cohortId=${w.cohorts.open.id}` : by === "teamId" ? `teamId=${w.teams.a2.id}` : "";
    const reportQuery =
      by === "schoolId" ? `schoolId=${w.schools.b.id}` : by === "cohortId" ? `cohortId=${w.cohorts.open.id}` : by === "teamId" ? `teamId=${w.teams.a2.id}` : "";
    const text = await pdfText(await pdfOf(user, `?${reportQuery}`));
    const flat = squash(text);

    const summary = (await get(user, `/api/students/summary?${filter}`)).json<StudentsSummary>();
    expect(printedTotals(text)).toEqual(summary);

    const trend = (await get(user, `/api/attendance/cohort-trends?${filter}`)).json<{ data: TrendPoint[] }>().data;
    expect(trend.length).toBeGreaterThan(0);
    for (const point of trend) expect(flat).toContain(weekRow(point));

    const students = (await get(user, `/api/students?limit=100&${filter}`)).json<StudentsResponse>();
    let from = 0;
    for (const s of students.data) {
      // In the list's order, each on its own table row with school, cohort and team.
      const row = squash(`${s.first_name} ${s.last_name} ${s.school_name ?? "No school"} ${s.cohort?.name ?? "No cohort"} ${s.team?.name ?? "No team"}`);
      const at = flat.indexOf(row, from);
      expect(at, `row for ${row}`).toBeGreaterThanOrEqual(0);
      from = at;
    }
  });

  it("prints what the filters are in words, when and by whom", async () => {
    const text = squash(await pdfText(await pdfOf("admin", `?schoolId=${w.schools.a.id}&cohortId=${w.cohorts.open.id}&teamId=${w.teams.a2.id}`)));
    expect(text).toContain("Attendance Report");
    expect(text).toContain("School: Alder High");
    expect(text).toContain("Cohort: Spring Open");
    expect(text).toContain("Team: Alder Hawks");
    expect(text).toMatch(/Generated on \d{1,2} \w+ \d{4} at \d\d:\d\d UTC by user-\S+ \(Admin\)/);
    const all = squash(await pdfText(await pdfOf("districtAB")));
    expect(all).toContain("School: All 2 of your schools: Alder High, Birch Academy");
    expect(all).toContain("Cohort: All cohorts");
  });

  it("prints Unicode names as they are", async () => {
    const text = squash(await pdfText(await pdfOf("schoolA")));
    for (const n of UNICODE_NAMES) expect(text).toContain(`${n.firstName} ${n.lastName}`);
  });

  it("never prints totals or names sent in the query", async () => {
    const forged = "?totalSchools=77&totalStudents=987654&totalCohorts=55&totalTeams=44&schoolName=Forged%20Academy&cohortName=Forged%20Cohort&teamName=Forged%20Team";
    const text = await pdfText(await pdfOf("schoolA", forged));
    expect(text).not.toMatch(/Forged|987,?654/);
    const summary = (await get("schoolA", "/api/students/summary")).json<StudentsSummary>();
    expect(printedTotals(text)).toEqual(summary);
  });

  it("holds at most studentLimit students and says how many more there are", async () => {
    const total = (await get("admin", "/api/students/summary")).json<StudentsSummary>().studentCount;
    const text = squash(await pdfText(await pdfOf("admin", "?studentLimit=3")));
    const first = (await get("admin", "/api/students?limit=4")).json<StudentsResponse>().data;
    for (const s of first.slice(0, 3)) expect(text).toContain(`${s.first_name} ${s.last_name}`);
    expect(text).not.toContain(`${first[3]?.first_name} ${first[3]?.last_name} `);
    expect(text).toContain(`… and ${total - 3} more students`);
    expect(total).toBeGreaterThan(BULK_STUDENTS);
  });

  it("caps studentLimit at 100 and can leave the students out", async () => {
    expect((await get("admin", "/api/pdf-reports/generate?studentLimit=101")).statusCode).toBe(400);
    const text = squash(await pdfText(await pdfOf("admin", "?includeStudents=false")));
    expect(text).not.toContain("Name School Cohort Team");
    expect(text).not.toContain("Pupil001 Zed");
    expect(text).toContain("Week 1");
  });

  it("numbers every page in its footer and repeats the table header on each page it runs onto", async () => {
    const pdf = await pdfOf("admin");
    const pages = await pdfPageCount(pdf);
    expect(pages).toBeGreaterThanOrEqual(3);
    for (let page = 1; page <= pages; page++) {
      const text = squash(await pdfText(pdf, { first: page, last: page }));
      expect(text).toContain(`Page ${page} of ${pages}`);
      expect(text).toContain("Attendance Report · All schools · generated");
      if (page >= 2) {
        // Every later page holds students only: each starts with the header again.
        expect(text.trimStart().startsWith("Name School Cohort Team Present Late Absent") || text.includes("Students (")).toBe(true);
        expect(text).toContain("Name School Cohort Team Present Late Absent");
      }
    }
  });
});
