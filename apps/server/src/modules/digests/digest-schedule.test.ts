import { describe, expect, it } from "vitest";
import { dueWeek, nextDigestRun, weekStartOf } from "./digest-schedule.js";

const at = (iso: string) => new Date(iso);

describe("when the weekly digest is due, in the programme's time zone", () => {
  it("is Monday 07:00 London time: 07:00 UTC in winter, 06:00 UTC in summer", () => {
    expect(nextDigestRun(at("2026-01-07T12:00:00Z"), "Europe/London").toISOString()).toBe("2026-01-12T07:00:00.000Z");
    expect(nextDigestRun(at("2026-07-01T12:00:00Z"), "Europe/London").toISOString()).toBe("2026-07-06T06:00:00.000Z");
  });

  it("crosses the spring change: the Sunday before is still winter, the Monday after is summer", () => {
    // Clocks go forward on Sunday 29 March 2026 at 01:00 UTC.
    expect(nextDigestRun(at("2026-03-28T23:00:00Z"), "Europe/London").toISOString()).toBe("2026-03-30T06:00:00.000Z");
    expect(nextDigestRun(at("2026-03-23T06:59:00Z"), "Europe/London").toISOString()).toBe("2026-03-23T07:00:00.000Z");
  });

  it("crosses the autumn change", () => {
    // Clocks go back on Sunday 25 October 2026 at 01:00 UTC.
    expect(nextDigestRun(at("2026-10-24T12:00:00Z"), "Europe/London").toISOString()).toBe("2026-10-26T07:00:00.000Z");
    // Monday 19 October is still summer time: 07:00 London is 06:00 UTC.
    expect(nextDigestRun(at("2026-10-19T05:00:00Z"), "Europe/London").toISOString()).toBe("2026-10-19T06:00:00.000Z");
  });

  it("is strictly after now: at 07:00 sharp the next run is a week later", () => {
    expect(nextDigestRun(at("2026-01-12T07:00:00Z"), "Europe/London").toISOString()).toBe("2026-01-19T07:00:00.000Z");
  });

  it("takes the Monday of the zone's calendar, not UTC's", () => {
    // Sunday 23:30 UTC is already Monday in Berlin, still Sunday in New York.
    expect(weekStartOf(at("2026-02-15T23:30:00Z"), "Europe/Berlin")).toBe("2026-02-16");
    expect(weekStartOf(at("2026-02-15T23:30:00Z"), "America/New_York")).toBe("2026-02-09");
    expect(nextDigestRun(at("2026-02-15T23:30:00Z"), "America/New_York").toISOString()).toBe("2026-02-16T12:00:00.000Z");
  });

  it("says which week is due: none before Monday 07:00, this week from then on", () => {
    expect(dueWeek(at("2026-01-12T06:59:59Z"), "Europe/London")).toBeNull();
    expect(dueWeek(at("2026-01-12T07:00:00Z"), "Europe/London")).toBe("2026-01-12");
    expect(dueWeek(at("2026-01-18T23:59:00Z"), "Europe/London")).toBe("2026-01-12");
  });

  it("falls back to London for an unknown zone instead of failing", () => {
    expect(nextDigestRun(at("2026-01-07T12:00:00Z"), "Not/AZone").toISOString()).toBe("2026-01-12T07:00:00.000Z");
  });
});
