import { FLAG_CODES } from "@tally/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { calculateFlags, FLAG_UPLOADER_CODES, type FlagFacts, mergeFlags, WEEKLY_IMPORT_CODES } from "./flag-rules.js";

const base: FlagFacts = {
  week: 3,
  weekCount: 6,
  totalExpectedHours: 120,
  inPlatformSource: true,
  progress: { progress: 60, pastDue: 0 },
  reflection: { hours: 20, rating: 4 },
};
const texts = (facts: Partial<FlagFacts>) => calculateFlags({ ...base, ...facts }).map((f) => f.text);

describe("calculateFlags", () => {
  it("gives no flag to a student on track", () => {
    expect(calculateFlags(base)).toEqual([]);
    expect(calculateFlags({ ...base, crm: { absent: 0, enrolled: 0 }, meetings: { mentorAbsent: false, advisorAbsent: false } })).toEqual([]);
  });

  it("decides no flag from a value that could not be read, and the others as usual", () => {
    expect(texts({ progress: { progress: null, pastDue: 2 }, reflection: { hours: null, rating: 1 } })).toEqual(["2 past-due assessment(s)", "Low wellbeing (1/5)"]);
    expect(texts({ progress: { progress: 5, pastDue: null }, reflection: { hours: 1, rating: null } })).toEqual([
      "Behind on progress (5% vs 50% expected)",
      "Low hours (1 of 20 expected)",
    ]);
  });

  it("writes every flag's exact text, in table order", () => {
    const flags = calculateFlags({
      ...base,
      progress: { progress: 5, pastDue: 3 },
      reflection: { hours: 1.5, rating: 2 },
      crm: { absent: 1, enrolled: 1 },
      meetings: { mentorAbsent: true, advisorAbsent: true },
    });
    expect(flags).toEqual([
      { code: "BEHIND_PROGRESS", text: "Behind on progress (5% vs 50% expected)" },
      { code: "PAST_DUE", text: "3 past-due assessment(s)" },
      { code: "LOW_HOURS", text: "Low hours (1.5 of 20 expected)" },
      { code: "LOW_WELLBEING", text: "Low wellbeing (2/5)" },
      { code: "ABSENT_SESSIONS", text: "Absent from 1 session(s)" },
      { code: "UNRECORDED_SESSIONS", text: "Attendance not recorded for 1 session(s)" },
      { code: "MISSED_MEETING", text: "Missed mentor meeting" },
      { code: "MISSED_MEETING", text: "Missed advisor meeting" },
    ]);
  });

  it("flags a missing progress record only for a student of the platform source, without progress flags", () => {
    expect(texts({ progress: null })).toEqual(["No learning-platform record"]);
    expect(texts({ progress: null, inPlatformSource: false })).toEqual([]);
  });

  it("flags a missing reflection as NO_REFLECTION only, never LOW_HOURS", () => {
    expect(calculateFlags({ ...base, reflection: null }).map((f) => f.code)).toEqual(["NO_REFLECTION"]);
  });

  it("puts the progress threshold at 100·W/N − 20", () => {
    expect(texts({ progress: { progress: 30, pastDue: 0 } })).toEqual([]);
    expect(texts({ progress: { progress: 29.9, pastDue: 0 } })).toEqual(["Behind on progress (29.9% vs 50% expected)"]);
    expect(texts({ week: 3, weekCount: 7, progress: { progress: 10, pastDue: 0 } })).toEqual(["Behind on progress (10% vs 42.9% expected)"]);
  });

  it("puts the hours threshold at half the expected weekly hours, 10 a week when the cohort has none", () => {
    expect(texts({ reflection: { hours: 10, rating: 3 } })).toEqual([]);
    expect(texts({ reflection: { hours: 9.5, rating: 3 } })).toEqual(["Low hours (9.5 of 20 expected)"]);
    expect(texts({ totalExpectedHours: null, reflection: { hours: 4, rating: 3 } })).toEqual(["Low hours (4 of 10 expected)"]);
    expect(texts({ totalExpectedHours: 0, reflection: { hours: 5, rating: 3 } })).toEqual([]);
    expect(texts({ totalExpectedHours: 100, weekCount: 6, reflection: { hours: 8, rating: 3 } })).toEqual(["Low hours (8 of 16.7 expected)"]);
  });

  it("flags wellbeing at 2 or below", () => {
    expect(texts({ reflection: { hours: 20, rating: 3 } })).toEqual([]);
    expect(texts({ reflection: { hours: 20, rating: 1 } })).toEqual(["Low wellbeing (1/5)"]);
  });

  it("always lists flags in table order", () => {
    const facts = fc.record({
      week: fc.integer({ min: 1, max: 12 }),
      weekCount: fc.integer({ min: 1, max: 12 }),
      totalExpectedHours: fc.option(fc.integer({ min: 0, max: 500 })),
      inPlatformSource: fc.boolean(),
      progress: fc.option(fc.record({ progress: fc.integer({ min: 0, max: 100 }), pastDue: fc.nat(5) })),
      reflection: fc.option(fc.record({ hours: fc.integer({ min: 0, max: 40 }), rating: fc.integer({ min: 1, max: 5 }) })),
      crm: fc.option(fc.record({ absent: fc.nat(3), enrolled: fc.nat(3) }), { nil: undefined }),
      meetings: fc.option(fc.record({ mentorAbsent: fc.boolean(), advisorAbsent: fc.boolean() }), { nil: undefined }),
    });
    fc.assert(
      fc.property(facts, (f) => {
        const ranks = calculateFlags(f).map((flag) => FLAG_CODES.indexOf(flag.code));
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      }),
    );
  });
});

describe("code lists", () => {
  it("leave out the codes the source cannot decide", () => {
    expect(WEEKLY_IMPORT_CODES).toEqual(["NO_PLATFORM_RECORD", "BEHIND_PROGRESS", "PAST_DUE", "NO_REFLECTION", "LOW_HOURS", "LOW_WELLBEING", "MISSED_MEETING"]);
    expect(FLAG_UPLOADER_CODES).not.toContain("MISSED_MEETING");
    expect(FLAG_UPLOADER_CODES).toHaveLength(8);
  });
});

describe("mergeFlags", () => {
  it("replaces the source's own codes, keeps the others, sorts by table order with unknown codes last", () => {
    const existing = [
      { code: "CUSTOM", text: "Custom note" },
      { code: "ABSENT_SESSIONS", text: "Absent from 2 session(s)" },
      { code: "PAST_DUE", text: "1 past-due assessment(s)" },
      { code: "MISSED_MEETING", text: "Missed mentor meeting" },
    ];
    const computed = [
      { code: "MISSED_MEETING", text: "Missed advisor meeting" },
      { code: "BEHIND_PROGRESS", text: "Behind on progress (5% vs 50% expected)" },
    ];
    expect(mergeFlags(existing, computed, WEEKLY_IMPORT_CODES)).toEqual([
      { code: "BEHIND_PROGRESS", text: "Behind on progress (5% vs 50% expected)" },
      { code: "ABSENT_SESSIONS", text: "Absent from 2 session(s)" },
      { code: "MISSED_MEETING", text: "Missed advisor meeting" },
      { code: "CUSTOM", text: "Custom note" },
    ]);
  });

  it("keeps mentor before advisor", () => {
    const computed = [
      { code: "MISSED_MEETING", text: "Missed mentor meeting" },
      { code: "MISSED_MEETING", text: "Missed advisor meeting" },
    ];
    expect(mergeFlags([], computed, WEEKLY_IMPORT_CODES).map((f) => f.text)).toEqual(["Missed mentor meeting", "Missed advisor meeting"]);
  });
});
