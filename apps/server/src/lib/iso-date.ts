/** Calendar arithmetic on YYYY-MM-DD strings, in UTC so the host's time zone never matters. */
export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
