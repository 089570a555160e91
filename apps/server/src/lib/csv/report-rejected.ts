/**
 * A whole file refused (nothing is written): missing or ambiguous column, empty file, too many
 * rows (413), not a CSV. The message names the file and, where there is one, the column.
 */
export class ReportRejected extends Error {
  constructor(
    message: string,
    readonly statusCode: 400 | 413 = 400,
  ) {
    super(message);
    this.name = "ReportRejected";
  }
}
