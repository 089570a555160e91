import { describe, expect, it } from "vitest";
import { auditFilterSchema, auditListQuerySchema } from "./audit.js";
import { cohortVisibilitySettingSchema } from "./cohort-visibility.js";
import { DATES_OUT_OF_ORDER, isCalendarDay, isoDaySchema, MAX_DB_ID, pageLimitSchema } from "./common.js";
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

const row = (id: number) => ({ cohort_id: id, school_id: id, is_visible: false });

describe("a cohort visibility row's ids", () => {
  it("go up to the database's largest id and no further", () => {
    expect(cohortVisibilitySettingSchema.safeParse(row(MAX_DB_ID)).success).toBe(true);
    expect(cohortVisibilitySettingSchema.safeParse({ ...row(1), cohort_id: MAX_DB_ID + 1 }).success).toBe(false);
    expect(cohortVisibilitySettingSchema.safeParse({ ...row(1), school_id: MAX_DB_ID + 1 }).success).toBe(false);
  });
});

describe("the paged lists' parameters (audit log, login history)", () => {
  it("say what is wrong in the same words", () => {
    expect(messages(auditListQuerySchema.safeParse({ limit: "0" }))).toEqual(["limit must be a whole number from 1 to 200"]);
    expect(messages(loginLogsQuerySchema.safeParse({ limit: "101" }))).toEqual(["limit must be a whole number from 1 to 100"]);
    for (const schema of [auditListQuerySchema, loginLogsQuerySchema]) {
      expect(messages(schema.safeParse({ offset: "-1" }))).toEqual(["offset must be a whole number of 0 or more"]);
      expect(messages(schema.safeParse({ offset: String(MAX_DB_ID + 1) }))).toEqual(["offset is too large"]);
    }
    expect(pageLimitSchema(50, 10).parse(undefined)).toBe(10);
  });

  it("refuse a date range that ends before it starts, with one text", () => {
    expect(messages(auditListQuerySchema.safeParse({ from: "2025-03-02", to: "2025-03-01" }))).toEqual([DATES_OUT_OF_ORDER]);
    expect(messages(loginLogsQuerySchema.safeParse({ start_date: "2025-03-02", end_date: "2025-03-01" }))).toEqual([DATES_OUT_OF_ORDER]);
  });
});
