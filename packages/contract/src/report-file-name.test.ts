import { describe, expect, it } from "vitest";
import { fileNamePart, localDay, reportFileName } from "./report-file-name.js";

describe("reportFileName", () => {
  it("names the cohort, all schools and the day (the issue's example)", () => {
    expect(reportFileName({ cohortName: "Autumn 2026 Internship" }, "2026-11-26", "pdf")).toBe(
      "Attendance-Autumn-2026-Internship-all-schools-2026-11-26.pdf",
    );
  });

  it("names every filter chosen, the team last, and says all for the others", () => {
    expect(reportFileName({ schoolName: "Alder High", cohortName: null, teamName: "Team Río / Norte" }, "2026-01-05", "csv")).toBe(
      "Attendance-all-cohorts-Alder-High-Team-Rio-Norte-2026-01-05.csv",
    );
    expect(reportFileName({}, "2026-11-26", "pdf")).toBe("Attendance-all-cohorts-all-schools-2026-11-26.pdf");
  });

  it("folds accents and keeps no character a file system or mail client could trip on", () => {
    expect(fileNamePart(' São Tomé: "Élan" <École>/../x ')).toBe("Sao-Tome-Elan-Ecole-x");
    expect(reportFileName({ schoolName: "日本語学校" }, "2026-11-26", "pdf")).toBe("Attendance-all-cohorts-school-2026-11-26.pdf");
  });

  it("reads the day in local time", () => {
    expect(localDay(new Date(2026, 10, 6, 23, 59))).toBe("2026-11-06");
  });
});
