import { describe, expect, it } from "vitest";
import { ReportRejected } from "./report-rejected.js";
import { ColumnFinder, foldHeader } from "./header-names.js";

describe("foldHeader", () => {
  it("folds case, spaces, underscores and punctuation", () => {
    const keys = ["Past Due Assessments", "past_due_assessments", "PAST DUE ASSESSMENTS ", " Past-Due Assessments:"].map(foldHeader);
    expect(new Set(keys)).toEqual(new Set(["pastdueassessments"]));
    expect(foldHeader("E-mail")).toBe(foldHeader("Email"));
    expect(foldHeader("Étudiant")).toBe("etudiant");
  });
});

describe("ColumnFinder", () => {
  const reflection = ["User Name", "How many HOURS did you work?", "On a scale of 1-5, how are you feeling?", "Describe your week"];

  it("finds columns by alias, best alias first, and by word", () => {
    const finder = new ColumnFinder(["notes", "Advisor_Notes", "E-Mail"], "m.csv");
    expect(finder.find({ label: "Advisor Notes", aliases: ["Advisor Notes", "Notes"] })).toBe(1);
    expect(finder.find({ label: "Email", aliases: ["Email", "E-mail", "Email Address"] })).toBe(2);
    const words = new ColumnFinder(reflection, "r.csv");
    expect(words.find({ label: "hours worked", wordPrefixes: ["hours"], required: true })).toBe(1);
    expect(words.find({ label: "feelings rating", wordPrefixes: ["feel", "rating"], required: true })).toBe(2);
    expect(words.find({ label: "reflection text", wordPrefixes: ["reflect", "describe"] })).toBe(3);
  });

  it("does not give one header two roles", () => {
    const finder = new ColumnFinder(["Name", "Hours: how do you feel about your hours?", "Rating"], "r.csv");
    expect(finder.find({ label: "hours worked", wordPrefixes: ["hours"] })).toBe(1);
    expect(finder.find({ label: "feelings rating", wordPrefixes: ["feel", "rating"] })).toBe(2);
  });

  it("lets a header that also names another role give way", () => {
    const finder = new ColumnFinder(["Name", "Describe how you feel about your week", "Rate your placement 1-5: how do you feel?"], "r.csv");
    expect(finder.find({ label: "feelings rating", wordPrefixes: ["feel", "rating"], otherRoleWords: ["describe", "reflect"] })).toBe(2);
    expect(finder.find({ label: "reflection text", wordPrefixes: ["reflect", "describe"] })).toBe(1);
  });

  it("returns null for a missing optional column", () => {
    expect(new ColumnFinder(["Name"], "a.csv").find({ label: "Email", aliases: ["Email"] })).toBeNull();
  });

  it("refuses a missing required column, naming file and column", () => {
    const finder = new ColumnFinder(["Name"], "progress.csv");
    expect(() => finder.find({ label: "Progress", aliases: ["Progress"], required: true })).toThrow(new ReportRejected('progress.csv: required column "Progress" is missing'));
  });

  it("refuses two headers for one role, naming both", () => {
    const finder = new ColumnFinder(["Name", "How many hours?", "Hours this week"], "reflections.csv");
    expect(() => finder.find({ label: "hours worked", wordPrefixes: ["hours"] })).toThrow(
      new ReportRejected('reflections.csv: ambiguous column for "hours worked": both "How many hours?" and "Hours this week" match'),
    );
    const aliases = new ColumnFinder(["Email", "E_MAIL"], "p.csv");
    expect(() => aliases.find({ label: "Email", aliases: ["Email"] })).toThrow(/ambiguous column for "Email": both "Email" and "E_MAIL"/);
  });
});
