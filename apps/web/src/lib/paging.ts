import { LIMITS } from "@tally/contract";

export interface PageBounds {
  pageCount: number;
  /** 1-based positions of the first and last shown item; 0 when there are none. */
  from: number;
  to: number;
}

export interface PageSlice<T> extends PageBounds {
  items: T[];
  page: number;
  total: number;
}

/** Page count and the 1-based positions of the first and last item of page `page` (0 when none). */
export function pageBounds(page: number, size: number, total: number): PageBounds {
  return {
    pageCount: Math.max(1, Math.ceil(total / size)),
    from: total > 0 ? (page - 1) * size + 1 : 0,
    to: Math.min(total, page * size),
  };
}

/** The `page`-th slice of `list` (clamped into range, so a shrinking list never shows an empty page). */
export function pageOf<T>(list: readonly T[], page: number, size: number): PageSlice<T> {
  const pageCount = Math.max(1, Math.ceil(list.length / size));
  const current = Math.min(Math.max(1, page), pageCount);
  const start = (current - 1) * size;
  return { items: list.slice(start, start + size), page: current, total: list.length, ...pageBounds(current, size, list.length) };
}

/** At most `max` page numbers around the current page. */
export function pageWindow(page: number, pageCount: number, max: number = LIMITS.userListPageButtons): number[] {
  const count = Math.min(max, pageCount);
  const first = Math.min(Math.max(1, page - Math.floor(max / 2)), pageCount - count + 1);
  return Array.from({ length: count }, (_, i) => first + i);
}
