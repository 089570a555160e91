import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectDateOrder, parseDate, parseNumber, parsePercent, parseWholeNumber } from "./cell-values.js";

describe("numbers", () => {
  it.each([
    ["45%", 45],
    [" 1,200 ", 1200],
    ["7.5", 7.5],
    ["0", 0],
    ["-3", -3],
    ["1,234,567.25", 1234567.25],
    ["7,5", 7.5],
    [".5", 0.5],
    ["12 %", 12],
  ])("parseNumber(%j) = %d", (raw, expected) => expect(parseNumber(raw)).toBe(expected));

  it.each(["", "abc", "12abc", "1,2,3", "1.2.3", "--1", "%", "NaN", "Infinity", "1e5"])("parseNumber(%j) is null", (raw) =>
    expect(parseNumber(raw)).toBeNull(),
  );

  it.each([
    ["0.45", 45],
    ["45", 45],
    ["45%", 45],
    ["1", 1],
    ["1.0", 100],
    ["0.07", 7],
    ["0.5%", 0.5],
    ["99.5", 99.5],
  ])("parsePercent(%j) = %d", (raw, expected) => expect(parsePercent(raw)).toBe(expected));

  it("parseWholeNumber refuses fractions", () => {
    expect(parseWholeNumber("3")).toBe(3);
    expect(parseWholeNumber("2.0")).toBe(2);
    expect(parseWholeNumber("2.5")).toBeNull();
    expect(parseWholeNumber("x")).toBeNull();
  });

  it("reads back any whole number however it is written", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.boolean(), fc.boolean(), (n, grouped, padded) => {
        let text = grouped ? n.toLocaleString("en-US") : String(n);
        if (padded) text = `  ${text} `;
        expect(parseNumber(text)).toBe(n);
        expect(parseWholeNumber(text)).toBe(n);
      }),
    );
  });

  it("reads a percentage and its fraction form as the same value", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99 }), (p) => {
        expect(parsePercent(`${p}%`)).toBe(p);
        expect(parsePercent((p / 100).toFixed(2))).toBe(p);
      }),
    );
  });
});

describe("dates", () => {
  it.each([
    ["2026-03-02", "2026-03-02"],
    ["3/2/2026", "2026-03-02"],
    ["03/02/2026", "2026-03-02"],
    ["2 Mar 2026", "2026-03-02"],
    ["2 March 2026", "2026-03-02"],
    ["02-Mar-2026", "2026-03-02"],
    ["Mar 2, 2026", "2026-03-02"],
    ["2026-03-02T10:00:00Z", "2026-03-02"],
    ["3/2/2026 10:15 AM", "2026-03-02"],
    ["2026-03-02 14:30:05", "2026-03-02"],
    ["3/2/26", "2026-03-02"],
    ["2 Sept 2026", "2026-09-02"],
    ["2nd March 2026", "2026-03-02"],
  ])("parseDate(%j) = %s", (raw, expected) => expect(parseDate(raw)).toBe(expected));

  it("reads numeric dates in the file's order", () => {
    expect(parseDate("3/2/2026", "day-month")).toBe("2026-02-03");
    expect(parseDate("13/2/2026", "day-month")).toBe("2026-02-13");
    expect(parseDate("13/2/2026", "month-day")).toBeNull();
  });

  it.each(["", "soon", "2026-02-30", "2/30/2026", "31 Apr 2026", "2026-13-01", "3/2", "2 Foo 2026", "0/1/2026", "2 Mayday 2026", "2 Marchx 2026", "2 Ma 2026"])("parseDate(%j) is null", (raw) =>
    expect(parseDate(raw)).toBeNull(),
  );

  it("detects the order from the first decisive date, US month/day otherwise", () => {
    expect(detectDateOrder(["3/2/2026", "13/2/2026"])).toBe("day-month");
    expect(detectDateOrder(["3/2/2026", "2/13/2026"])).toBe("month-day");
    expect(detectDateOrder(["3/2/2026", "12/11/2026", "2026-07-30"])).toBe("month-day");
    expect(detectDateOrder([])).toBe("month-day");
  });

  it("reads back every calendar date in each form", () => {
    const day = fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true });
    fc.assert(
      fc.property(day, (d) => {
        const iso = d.toISOString().slice(0, 10);
        const [y, m, dd] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
        const month = d.toLocaleString("en-US", { month: "short", timeZone: "UTC" });
        expect(parseDate(iso)).toBe(iso);
        expect(parseDate(`${m}/${dd}/${y}`, "month-day")).toBe(iso);
        expect(parseDate(`${String(dd).padStart(2, "0")}/${String(m).padStart(2, "0")}/${y}`, "day-month")).toBe(iso);
        expect(parseDate(`${dd} ${month} ${y}`)).toBe(iso);
      }),
    );
  });
});
