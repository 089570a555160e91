import dayjs from "dayjs";

/** "Mar 3, 2025" for a YYYY-MM-DD date or an ISO timestamp; "—" when missing or unreadable. */
export function displayDate(value: string | null | undefined): string {
  if (!value) return "—";
  const d = dayjs(value);
  return d.isValid() ? d.format("MMM D, YYYY") : value;
}
