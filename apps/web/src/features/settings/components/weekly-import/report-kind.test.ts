import { describe, expect, it } from "vitest";
import { misplacedText, reportKindOf } from "./report-kind";

// The header rows of the sample week (apps/server/test/fixtures/week3).
const MEETING = "First Name,Last Name,Email,School,Team,Meeting Date,Meeting Type,Status,Advisor Notes";
const PROGRESS = "Name,Email,Team,Progress,Past Due Assessments,Assessments Without Due Dates";
const REFLECTIONS =
  'User Name,Email,How many hours did you work at your placement this week?,"On a scale of 1-5, how are you feeling about your placement?",Describe one thing you learned this week';
const CRM = "Enrollee Name,Benefit Assignment ID,Disbursement Status,Enrollee Email,Benefit Session,Session Date";

describe("reportKindOf", () => {
  it("recognises each report by its header row, with a byte-order mark, quotes or semicolons", () => {
    expect(reportKindOf(MEETING)).toBe("attendanceReport");
    expect(reportKindOf(`\uFEFF${MEETING.replaceAll(",", ";")}`)).toBe("attendanceReport");
    expect(reportKindOf(PROGRESS)).toBe("progressReport");
    expect(reportKindOf(REFLECTIONS)).toBe("reflectionReport");
    expect(reportKindOf(CRM)).toBe("crm");
    expect(reportKindOf("a,b,c")).toBeNull();
  });

  it("says when a file is in the wrong box, and nothing when it fits or is unknown", () => {
    expect(misplacedText("attendanceReport", "progressReport")).toBe("This looks like the progress report, not the meeting attendance report.");
    expect(misplacedText("attendanceReport", "crm")).toMatch(/^This looks like the CRM attendance report, which the Flag Uploader takes/);
    expect(misplacedText("progressReport", "progressReport")).toBeNull();
    expect(misplacedText("progressReport", null)).toBeNull();
  });
});
