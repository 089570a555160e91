import { LIMITS } from "@tally/contract";

export interface PageSlice<T> {
  items: T[];
  page: number;
  pageCount: number;
  /** 1-based positions of the first and last shown item; 0 when there are none. */
  from: number;
  to: number;
  total: number;
}

/** The `page`-th slice of `list` (clamped into range, so a shrinking list never shows an empty page). */
export function pageOf<T>(list: readonly T[], page: number, size: number): PageSlice<T> {
  const pageCount = Math.max(1, Math.ceil(list.length / size));
  const current = Math.min(Math.max(1, page), pageCount);
  const start = (current - 1) * size;
  const items = list.slice(start, start + size);
  return {
    items,
    page: current,
    pageCount,
    from: items.length > 0 ? start + 1 : 0,
    to: start + items.length,
    total: list.length,
  };
}

/** At most `max` page numbers around the current page. */
export function pageWindow(page: number, pageCount: number, max: number = LIMITS.userListPageButtons): number[] {
  const count = Math.min(max, pageCount);
  const first = Math.min(Math.max(1, page - Math.floor(max / 2)), pageCount - count + 1);
  return Array.from({ length: count }, (_, i) => first + i);
}
