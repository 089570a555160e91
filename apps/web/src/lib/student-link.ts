// A link that opens one student's details on the dashboard, for pages outside the dashboard
// feature (the flag uploader's Benefit Assignment ID conflicts, the "Needs attention" list):
// features do not import each other, so the address is written once here and both sides read it.

const STUDENT_PARAM = "student";
const TAB_PARAM = "tab";

interface LinkOptions {
  /** The tab of the student's details to open first ("follow-up"). */
  tab?: string;
  /** A school user's own school: their dashboard is /school/:id/dashboard, not /dashboard. */
  ownSchoolId?: number | null;
}

/** "/dashboard?student=12": the dashboard opens the student's details. */
export function studentLink(studentId: number, options: LinkOptions = {}): string {
  const base = options.ownSchoolId ? `/school/${options.ownSchoolId}/dashboard` : "/dashboard";
  const tab = options.tab ? `&${TAB_PARAM}=${encodeURIComponent(options.tab)}` : "";
  return `${base}?${STUDENT_PARAM}=${studentId}${tab}`;
}

/** The student a page address asks to open, or null (anything but a positive whole number is ignored). */
export function studentFromLink(search: string): number | null {
  const value = new URLSearchParams(search).get(STUDENT_PARAM);
  if (value === null || !/^[1-9]\d{0,9}$/.test(value)) return null;
  return Number(value);
}

/** The tab a page address asks the student's details to open on, or null. */
export function studentTabFromLink(search: string): string | null {
  return new URLSearchParams(search).get(TAB_PARAM);
}
