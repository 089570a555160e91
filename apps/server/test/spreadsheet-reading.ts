/**
 * Reads CSV text as a spreadsheet opens it with `separator` as its list separator (Excel in a
 * `;` locale opens a comma file so): a field that starts with a quote is quoted up to its
 * closing quote and what follows is kept as written; a quote anywhere else is text; CR, LF or
 * CRLF outside quotes ends a record. A leading byte order mark is dropped.
 */
export function readAsSpreadsheet(text: string, separator: string): string[][] {
  const records: string[][] = [];
  let cells: string[] = [];
  let cell = "";
  let i = text.startsWith("\uFEFF") ? 1 : 0;
  let fieldStart = true;
  while (i < text.length) {
    const ch = text[i]!;
    if (fieldStart && ch === '"') {
      fieldStart = false;
      for (i++; i < text.length; i++) {
        if (text[i] !== '"') cell += text[i];
        else if (text[i + 1] === '"') cell += text[++i];
        else break;
      }
      i++;
      continue;
    }
    fieldStart = false;
    if (ch === separator) {
      cells.push(cell);
      cell = "";
      fieldStart = true;
    } else if (ch === "\r" || ch === "\n") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      records.push([...cells, cell]);
      cells = [];
      cell = "";
      fieldStart = true;
    } else {
      cell += ch;
    }
    i++;
  }
  if (cell !== "" || cells.length > 0) records.push([...cells, cell]);
  return records;
}

const PLAIN_NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The cells a spreadsheet would run as formulas: = + - or @ first (after any tabs or CRs), unless a plain number. */
export function formulaCells(records: readonly string[][]): string[] {
  return records.flat().filter((cell) => /^[\t\r]*[=+\-@]/.test(cell) && !PLAIN_NUMBER.test(cell));
}
