/**
 * Whether an uploaded file counts as a CSV report, one rule for both upload forms and the
 * server: a `.csv` name (any letter case) whatever type the browser reports, since the type
 * of one file differs by system (Excel's exports arrive as text/csv, application/vnd.ms-excel
 * or no type at all); a name without an extension only when the browser calls it text/csv.
 * The server reads the content after this and refuses binary data.
 */
export function isCsvFile(name: string, type: string): boolean {
  if (/\.csv$/i.test(name)) return true;
  return !/\.[a-z0-9]+$/i.test(name) && type === "text/csv";
}
