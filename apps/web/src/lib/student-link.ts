// A link that opens one student's details on the dashboard, for pages outside the dashboard
// feature (the flag uploader's Benefit Assignment ID conflicts): features do not import each
// other, so the address is written once here and both sides read it.

const STUDENT_PARAM = "student";

/** "/dashboard?student=12": the dashboard opens the student's details. */
export function studentLink(studentId: number): string {
  return `/dashboard?${STUDENT_PARAM}=${studentId}`;
}

/** The student a page address asks to open, or null (anything but a positive whole number is ignored). */
export function studentFromLink(search: string): number | null {
  const value = new URLSearchParams(search).get(STUDENT_PARAM);
  if (value === null || !/^[1-9]\d{0,9}$/.test(value)) return null;
  return Number(value);
}
