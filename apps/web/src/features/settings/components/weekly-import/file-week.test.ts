import { describe, expect, it } from "vitest";
import { meetingDates, weekOfDates } from "./file-week";

const REPORT = `First Name,Last Name,Email,School,Team,Meeting Date,Meeting Type,Status,Advisor Notes
Dmitri,Silva,d@example.org,Riverside Academy,Team B2,2026-07-14,Mentor,Present,
"Silva, Ana",,a@example.org,Riverside Academy,Team B2,7/16/2026,Advisor,Late,"Good, ""really"""
Kim,Park,k@example.org,Riverside Academy,,not a date,Mentor,Present,
`;

describe("the week of a meeting report's dates", () => {
  it("reads ISO and month/day/year dates from the Meeting Date column, quotes understood, a bad date passed over", () => {
    expect(meetingDates(REPORT)).toEqual(["2026-07-14", "2026-07-16"]);
    expect(meetingDates("Name;Date;Status\nA B;2026-07-20;Present\n")).toEqual(["2026-07-20"]);
    expect(meetingDates("Name,Progress\nA,5\n")).toEqual([]);
  });

  it("is the cohort week most dates fall in, or null outside the cohort", () => {
    expect(weekOfDates(["2026-07-14", "2026-07-16", "2026-07-08"], "2026-06-29", "2026-08-10")).toBe(3);
    expect(weekOfDates(["2025-07-14"], "2026-06-29", "2026-08-10")).toBeNull();
    // The cohort's 8th day (day 7) begins week 2, as the flag uploader proposes on that day.
    expect(weekOfDates(["2026-07-06"], "2026-06-29", "2026-08-10")).toBe(2);
    // Most dates before the cohort: no week of it, though one date falls in week 1 (the server's week mismatch says the same).
    expect(weekOfDates(["2026-06-20", "2026-06-21", "2026-07-01"], "2026-06-29", "2026-08-10")).toBeNull();
  });
});
