import { describe, expect, it } from "vitest";
import { attendedShare, toTrendRows, trendSummary } from "./trend-rows";

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
