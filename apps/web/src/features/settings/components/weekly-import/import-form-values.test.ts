import { describe, expect, it } from "vitest";
import { summerCohort } from "../../../../testing/weekly-import-data";
import { EMPTY_IMPORT_FORM, fileProblem, fileSizeText, lastCompletedWeek, runningCohort, weekOf, withProgramDefaults } from "./import-form-values";

const on = (iso: string) => new Date(`${iso}T12:00:00`);

describe("lastCompletedWeek and weekOf", () => {
  it("is the last week that is over (1 before any is), with its dates", () => {
    expect(lastCompletedWeek("2026-06-29", "2026-08-10", on("2026-07-05"))).toBe(1); // week 1 not over yet
    expect(lastCompletedWeek("2026-06-29", "2026-08-10", on("2026-07-13"))).toBe(2);
    expect(lastCompletedWeek("2026-06-29", "2026-08-10", on("2026-07-19"))).toBe(2);
    expect(lastCompletedWeek("2026-06-29", "2026-08-10", on("2026-07-20"))).toBe(3);
    expect(lastCompletedWeek("2026-06-29", "2026-08-10", on("2026-11-25"))).toBe(6);
    expect(weekOf("2026-06-29", 3)).toEqual({ number: 3, start: "2026-07-13", end: "2026-07-19" });
  });
});

describe("runningCohort", () => {
  const autumn = { ...summerCohort, id: 20, name: "Autumn 2026", start_date: "2026-10-26", end_date: "2026-12-07" };
  it("is the cohort running today, else the one that ended last", () => {
    expect(runningCohort([summerCohort, autumn], on("2026-11-26"))?.id).toBe(20);
    expect(runningCohort([summerCohort, autumn], on("2026-09-01"))?.id).toBe(12);
    expect(runningCohort([autumn], on("2026-09-01"))).toBeNull();
  });
});

describe("withProgramDefaults", () => {
  const draft = { ...EMPTY_IMPORT_FORM, mode: "new" as const };
  it("fills the end date and 20 hours a week from the program type, never over what was typed", () => {
    const typed = withProgramDefaults(withProgramDefaults(draft, { startDate: "2026-06-29" }), { programType: "Internship (6 week)" });
    expect([typed.endDate, typed.totalExpectedHours]).toEqual(["2026-08-10", "120"]);
    // Another type moves what it filled in.
    const eight = withProgramDefaults(typed, { programType: "Internship (8 week)" });
    expect([eight.endDate, eight.totalExpectedHours]).toEqual(["2026-08-24", "160"]);
    // What the person typed stays.
    const own = withProgramDefaults({ ...eight, totalExpectedHours: "90" }, { programType: "Internship (4 week)" });
    expect([own.endDate, own.totalExpectedHours]).toEqual(["2026-07-27", "90"]);
    expect(withProgramDefaults(draft, { programType: "Projects" }).endDate).toBe("");
  });
});

const file = (name: string, size: number, type = "text/csv") => new File([new Uint8Array(size)], name, { type });

describe("fileProblem", () => {
  it("takes a CSV by the contract's rule (a .csv name whatever its type), and refuses others, empty and over 10 MB", () => {
    expect(fileProblem(file("week.CSV", 10), "Progress report")).toBeNull();
    expect(fileProblem(file("week.csv", 10, ""), "Progress report")).toBeNull();
    expect(fileProblem(file("week.csv", 10, "application/vnd.ms-excel"), "Progress report")).toBeNull();
    // What the flag uploader and the server take, the import takes too: the type varies by system.
    expect(fileProblem(file("week.csv", 10, "application/octet-stream"), "Progress report")).toBeNull();
    expect(fileProblem(file("week", 10, "text/csv"), "Progress report")).toBeNull();
    expect(fileProblem(null, "Progress report")).toBe("Progress report is required");
    expect(fileProblem(file("week.xlsx", 10), "Progress report")).toBe("Progress report must be a CSV file (.csv)");
    expect(fileProblem(file("week", 10, ""), "Progress report")).toBe("Progress report must be a CSV file (.csv)");
    expect(fileProblem(file("week.csv", 0), "Progress report")).toBe("Progress report is empty");
    expect(fileProblem(file("week.csv", 10 * 1024 * 1024), "Progress report")).toBeNull();
    expect(fileProblem(file("week.csv", 10 * 1024 * 1024 + 1), "Progress report")).toBe("Progress report is larger than 10 MB");
  });

  it("writes sizes as a person reads them", () => {
    expect(fileSizeText(1)).toBe("1 byte");
    expect(fileSizeText(900)).toBe("900 bytes");
    expect(fileSizeText(9216)).toBe("9.0 KB");
    expect(fileSizeText(2.5 * 1024 * 1024)).toBe("2.5 MB");
  });
});
