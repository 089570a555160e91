import { describe, expect, it } from "vitest";
import { pageBounds, pageOf, pageWindow } from "./paging";

describe("paging", () => {
  it("shows at most five page numbers around the current page", () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 9)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(5, 9)).toEqual([3, 4, 5, 6, 7]);
    expect(pageWindow(9, 9)).toEqual([5, 6, 7, 8, 9]);
  });

  it("slices a page and clamps a page past the end", () => {
    const list = Array.from({ length: 23 }, (_, i) => i);
    expect(pageOf(list, 1, 10)).toMatchObject({ from: 1, to: 10, total: 23, pageCount: 3 });
    expect(pageOf(list, 3, 10)).toMatchObject({ from: 21, to: 23, page: 3 });
    expect(pageOf(list, 7, 10)).toMatchObject({ from: 21, to: 23, page: 3 });
    expect(pageOf([], 1, 10)).toMatchObject({ from: 0, to: 0, total: 0, pageCount: 1 });
  });

  it("counts the pages of a server-paged list and the positions one page shows", () => {
    expect(pageBounds(1, 10, 23)).toEqual({ pageCount: 3, from: 1, to: 10 });
    expect(pageBounds(3, 10, 23)).toEqual({ pageCount: 3, from: 21, to: 23 });
    expect(pageBounds(1, 10, 0)).toEqual({ pageCount: 1, from: 0, to: 0 });
  });
});
