/** Today's date where the person is, as YYYY-MM-DD (the cohort dates are calendar dates too). */
const pad = (n: number) => String(n).padStart(2, "0");

export function todayIso(now: Date = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
