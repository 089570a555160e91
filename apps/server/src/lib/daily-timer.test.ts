import { afterEach, describe, expect, it, vi } from "vitest";
import { localDay, nextRunAfter, startDailyTimer } from "./daily-timer.js";

const at = { hour: 2, minute: 30 };

describe("nextRunAfter", () => {
  it("is today's 02:30 before it, tomorrow's from it on (server local)", () => {
    const morning = new Date(2025, 1, 10, 1, 0);
    expect(nextRunAfter(morning, at)).toEqual(new Date(2025, 1, 10, 2, 30));
    expect(nextRunAfter(new Date(2025, 1, 10, 2, 30), at)).toEqual(new Date(2025, 1, 11, 2, 30));
    expect(nextRunAfter(new Date(2025, 1, 28, 23, 0), at)).toEqual(new Date(2025, 2, 1, 2, 30));
    expect(localDay(new Date(2025, 0, 5, 2, 30))).toBe("2025-01-05");
  });
});

describe("startDailyTimer", () => {
  afterEach(() => vi.useRealTimers());

  it("runs once a night with that night's day, goes on after a failure, and stops", async () => {
    vi.useFakeTimers({ now: new Date(2025, 1, 10, 1, 0) });
    const days: string[] = [];
    const errors: unknown[] = [];
    const timer = startDailyTimer({ now: () => new Date() }, at, async (day) => {
      days.push(day);
      if (days.length === 1) throw new Error("first night fails");
    }, (err) => errors.push(err));
    await vi.advanceTimersByTimeAsync(89 * 60_000);
    expect(days).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(days).toEqual(["2025-02-10"]);
    expect(errors).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(24 * 3_600_000);
    expect(days).toEqual(["2025-02-10", "2025-02-11"]);
    await timer.stop();
    await vi.advanceTimersByTimeAsync(3 * 24 * 3_600_000);
    expect(days).toEqual(["2025-02-10", "2025-02-11"]);
  });
});
