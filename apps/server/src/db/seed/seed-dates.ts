export { addDays } from "../../lib/iso-date.js";

/** The cohort's week count as the flag rules define it: ceil(days / 7), at least 1. */
export function weekCount(startDate: string, endDate: string): number {
  const days = (Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`)) / 86_400_000;
  return Math.max(1, Math.ceil(days / 7));
}

/** Demo attendance covers up to eight weeks of a cohort. */
export function attendanceWeeks(startDate: string, endDate: string): number {
  return Math.min(8, weekCount(startDate, endDate));
}

/** Numbers as the flag texts write them: at most one decimal, no trailing zeros. */
export function formatNumber(n: number): string {
  return String(Math.round(n * 10) / 10);
}
