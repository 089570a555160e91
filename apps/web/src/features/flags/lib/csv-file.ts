/** A CSV by name or by type: browsers report text/csv, Excel's vnd.ms-excel, or nothing at all. */
export function isCsvFile(file: File): boolean {
  if (/\.csv$/i.test(file.name)) return true;
  return file.type === "text/csv" || file.type === "application/csv";
}
