import { describe, expect, it } from "vitest";
import { auditFilterSchema } from "./audit.js";
import { cohortVisibilitySettingSchema } from "./cohort-visibility.js";
import { isCalendarDay, isoDaySchema, MAX_DB_ID } from "./common.js";
import { loginLogsQuerySchema } from "./users.js";

const messages = (r: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  r.success ? [] : (r.error?.issues.map((i) => i.message) ?? []);

describe("a day as YYYY-MM-DD", () => {
  it("is a real calendar day", () => {
    expect(isCalendarDay("2024-02-29")).toBe(true);
    expect(isCalendarDay("2025-02-29")).toBe(false);
    expect(isCalendarDay("2025-13-01")).toBe(false);
    expect(isCalendarDay("not a day")).toBe(false);
  });

  it("is one rule for the audit filters and the login history", () => {
    for (const bad of ["2025-02-30", "2025-2-1", ""]) {
      const expected = messages(isoDaySchema.safeParse(bad));
      expect(expected.length).toBeGreaterThan(0);
      expect(messages(auditFilterSchema.safeParse({ from: bad }))).toEqual(expected);
      expect(messages(loginLogsQuerySchema.safeParse({ start_date: bad }))).toEqual(expected);
    }
    expect(messages(isoDaySchema.safeParse("2025-02-30"))).toEqual(["Dates must be real calendar days"]);
    expect(messages(isoDaySchema.safeParse("2025-2-1"))).toContain("Dates must look like YYYY-MM-DD");
    expect(isoDaySchema.parse("2025-02-28")).toBe("2025-02-28");
  });
});

describe("a cohort visibility row's ids", () => {
  it("go up to the database's largest id and no further", () => {
    const row = (id: number) => ({ cohort_id: id, school_id: id, is_visible: false });
    expect(cohortVisibilitySettingSchema.safeParse(row(MAX_DB_ID)).success).toBe(true);
    expect(cohortVisibilitySettingSchema.safeParse({ ...row(1), cohort_id: MAX_DB_ID + 1 }).success).toBe(false);
    expect(cohortVisibilitySettingSchema.safeParse({ ...row(1), school_id: MAX_DB_ID + 1 }).success).toBe(false);
  });
});
