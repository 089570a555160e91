import { describe, expect, it } from "vitest";
import { attendedShare, changeText, fitAxis, latestWeekChange, toTrendRows, trendSummary, weekLabel } from "./trend-rows";

describe("trend chart data", () => {
  it("plots present plus late per meeting type, within 0-100", () => {
    const rows = toTrendRows([
      { week: 1, mentorPresent: 70, mentorLate: 10, advisorPresent: 50, advisorLate: 5 },
      { week: 2, mentorPresent: 95, mentorLate: 10, advisorPresent: null, advisorLate: null },
    ]);
    expect(rows).toEqual([
      { week: "Week 1", mentor: 80, advisor: 55 },
      { week: "Week 2", mentor: 100, advisor: null },
    ]);
  });

  it("keeps a week without records empty instead of zero", () => {
    expect(attendedShare(null, null)).toBeNull();
    expect(attendedShare(0, 0)).toBe(0);
  });

  it("describes the chart for screen readers", () => {
    const text = trendSummary([
      { week: "Week 1", mentor: 80, advisor: 60 },
      { week: "Week 2", mentor: 90, advisor: null },
    ]);
    expect(text).toContain("from Week 1 to Week 2");
    expect(text).toContain("Mentor meetings average 85%");
    expect(text).toContain("Advisor meetings average 60%");
  });
});

describe("weeks with dates", () => {
  const autumn = { start_date: "2026-10-26" };

  it("dates a cohort's week from its start date, across a month's end", () => {
    expect(weekLabel(1, autumn)).toBe("Week 1 · 26 Oct–1 Nov");
    expect(weekLabel(4, autumn)).toBe("Week 4 · 16–22 Nov");
    expect(weekLabel(4, null)).toBe("Week 4");
    expect(toTrendRows([{ week: 4, mentorPresent: 80, mentorLate: 0, advisorPresent: null, advisorLate: null }], autumn)[0]!.week).toBe(
      "Wk 4 · 16 Nov",
    );
  });
});

describe("the fitted axis", () => {
  it("fits round ends around the values, says when it does not start at zero, and ends on ticks", () => {
    const axis = fitAxis([82, 78, 86, null]);
    expect(axis).toEqual({ domain: [70, 95], ticks: [70, 75, 80, 85, 90, 95], fromZero: false });
    expect(axis.ticks.at(-1)).toBe(axis.domain[1]);
    expect(fitAxis([20, 95]).domain).toEqual([10, 100]);
    expect(fitAxis([3, 10]).fromZero).toBe(true);
    expect(fitAxis([100, 100]).domain).toEqual([80, 100]);
    expect(fitAxis([]).domain).toEqual([0, 100]);
  });
});

describe("week-over-week change", () => {
  it("gives the newest week and its change in points", () => {
    const change = latestWeekChange([
      { week: 3, mentorPresent: 80, mentorLate: 6, advisorPresent: 70, advisorLate: 0 },
      { week: 4, mentorPresent: 78, mentorLate: 4, advisorPresent: 72, advisorLate: 0 },
    ]);
    expect(change).toEqual({ week: 4, mentor: 82, advisor: 72, mentorChange: -4, advisorChange: 2 });
    expect(changeText(-4)).toBe("−4 pts vs last week");
    expect(changeText(2)).toBe("+2 pts vs last week");
    expect(changeText(0)).toBe("no change vs last week");
    expect(latestWeekChange([{ week: 1, mentorPresent: 50, mentorLate: 0, advisorPresent: null, advisorLate: null }])).toMatchObject({
      mentorChange: null,
      advisor: null,
    });
  });
});
