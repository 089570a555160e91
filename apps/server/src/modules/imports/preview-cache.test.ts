import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PreviewCache } from "./preview-cache.js";

describe("PreviewCache", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("gives a kept value once", () => {
    const kept = new PreviewCache<string>(60_000, 2);
    kept.keep("a", "plan a");
    expect(kept.take("b")).toBeNull();
    expect(kept.take("a")).toBe("plan a");
    expect(kept.take("a")).toBeNull();
  });

  it("forgets a value after its time", () => {
    const kept = new PreviewCache<string>(60_000, 2);
    kept.keep("a", "plan a");
    vi.advanceTimersByTime(59_999);
    kept.keep("b", "plan b");
    vi.advanceTimersByTime(1);
    expect(kept.take("a")).toBeNull();
    expect(kept.take("b")).toBe("plan b");
  });

  it("keeps the newest values when more are kept than it holds, and a key kept again restarts its time", () => {
    const kept = new PreviewCache<string>(60_000, 2);
    kept.keep("a", "plan a");
    kept.keep("b", "plan b");
    vi.advanceTimersByTime(30_000);
    kept.keep("a", "plan a2");
    kept.keep("c", "plan c");
    expect(kept.take("b")).toBeNull();
    vi.advanceTimersByTime(45_000);
    expect(kept.take("a")).toBe("plan a2");
    expect(kept.take("c")).toBe("plan c");
  });

  it("forgets everything when cleared", () => {
    const kept = new PreviewCache<string>(60_000, 2);
    kept.keep("a", "plan a");
    kept.clear();
    expect(kept.take("a")).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });
});
