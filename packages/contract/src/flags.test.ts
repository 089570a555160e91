import { describe, expect, it } from "vitest";
import { FLAG_CODES, flag, flagText, plainNumber } from "./flags.js";

describe("plainNumber", () => {
  it.each([
    [50, "50"],
    [42.857, "42.9"],
    [7.5, "7.5"],
    [20.0, "20"],
    [0.04, "0"],
    [-0.04, "0"],
    [16.666, "16.7"],
  ])("%d → %s", (n, text) => expect(plainNumber(n)).toBe(text));
});

describe("flag texts", () => {
  it("has a text for every code, in report-formats.md's words", () => {
    expect(Object.keys(flagText)).toEqual([...FLAG_CODES]);
    expect([
      flag("NO_PLATFORM_RECORD"),
      flag("BEHIND_PROGRESS", 5, 42.857),
      flag("PAST_DUE", 3),
      flag("NO_REFLECTION"),
      flag("LOW_HOURS", 1.5, 20),
      flag("LOW_WELLBEING", 2),
      flag("ABSENT_SESSIONS", 1),
      flag("UNRECORDED_SESSIONS", 2),
      flag("MISSED_MEETING", "advisor"),
    ]).toEqual([
      { code: "NO_PLATFORM_RECORD", text: "No learning-platform record" },
      { code: "BEHIND_PROGRESS", text: "Behind on progress (5% vs 42.9% expected)" },
      { code: "PAST_DUE", text: "3 past-due assessment(s)" },
      { code: "NO_REFLECTION", text: "No reflection submitted" },
      { code: "LOW_HOURS", text: "Low hours (1.5 of 20 expected)" },
      { code: "LOW_WELLBEING", text: "Low wellbeing (2/5)" },
      { code: "ABSENT_SESSIONS", text: "Absent from 1 session(s)" },
      { code: "UNRECORDED_SESSIONS", text: "Attendance not recorded for 2 session(s)" },
      { code: "MISSED_MEETING", text: "Missed advisor meeting" },
    ]);
  });
});
