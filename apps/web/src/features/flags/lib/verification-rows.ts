import type { FlagUnmatchedRow, FlagVerificationRow } from "@tally/contract";

export type FlagSort = "none" | "desc" | "asc";

/**
 * The row indexes to show: only the flagged ones when asked, ordered by flag count (ties keep
 * the server's order, so the list does not jump about). Indexes, because selection is by index.
 */
export function visibleRows(rows: readonly FlagVerificationRow[], onlyFlagged: boolean, sort: FlagSort): number[] {
  const indexes = rows.flatMap((row, i) => (!onlyFlagged || row.calculated_flags.length > 0 ? [i] : []));
  if (sort === "none") return indexes;
  const sign = sort === "desc" ? -1 : 1;
  return indexes.sort((a, b) => sign * (rows[a]!.calculated_flags.length - rows[b]!.calculated_flags.length) || a - b);
}

export const nextSort = (sort: FlagSort): FlagSort => (sort === "none" ? "desc" : sort === "desc" ? "asc" : "none");

/** Unmatched rows by reason, reasons in the order they first appear. */
export function groupUnmatched(rows: readonly FlagUnmatchedRow[]): Array<{ reason: string; rows: FlagUnmatchedRow[] }> {
  const groups = new Map<string, FlagUnmatchedRow[]>();
  for (const row of rows) {
    const group = groups.get(row.reason);
    if (group) group.push(row);
    else groups.set(row.reason, [row]);
  }
  return [...groups].map(([reason, list]) => ({ reason, rows: list }));
}

/** The rows sent back to confirm: exactly as received, only the ones still checked. */
export function keptRows(rows: readonly FlagVerificationRow[], selected: ReadonlySet<number>) {
  return rows.filter((_, i) => selected.has(i));
}
