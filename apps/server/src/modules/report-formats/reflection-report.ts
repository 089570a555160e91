import { parseDate, parseNumber, parseWholeNumber } from "../../lib/csv/cell-values.js";
import { EMAIL_ALIASES, fileDateOrder, findNameColumns, openReport, readRows } from "./report-reader.js";
import type { ParsedReport, ReflectionRow, ReportFile } from "./report-types.js";

/** More hours than a week has is a typo, not a week's work. */
const MAX_WEEKLY_HOURS = 168;

const hoursOf = (raw: string) => {
  const value = parseNumber(raw);
  return value !== null && value >= 0 && value <= MAX_WEEKLY_HOURS ? value : null;
};
const ratingOf = (raw: string) => {
  const value = parseWholeNumber(raw);
  return value !== null && value >= 1 && value <= 5 ? value : null;
};

/**
 * The learning platform's reflection survey: its headers are the question texts, so the
 * columns are found by the words in them (report-formats.md, "Reflection report").
 */
export async function readReflectionReport(file: ReportFile): Promise<ParsedReport<ReflectionRow>> {
  const open = await openReport(file);
  const { columns } = open;
  const names = findNameColumns(columns, ["User Name"], "User Name");
  const email = columns.find({ label: "Email", aliases: EMAIL_ALIASES });
  const submitted = columns.find({ label: "Submitted", aliases: ["Submitted", "Submitted At", "Submission Date"] });
  const textWords = ["reflect", "describe"];
  const hours = columns.find({ label: "hours worked", wordPrefixes: ["hours"], otherRoleWords: textWords, required: true })!;
  const rating = columns.find({ label: "feelings rating", wordPrefixes: ["feel", "rating"], otherRoleWords: textWords, required: true })!;
  const text = columns.find({ label: "reflection text", wordPrefixes: textWords });
  const order = await fileDateOrder(open, [submitted]);

  const { rows, flawed, errors } = await readRows<ReflectionRow>(open, (r) => {
    const key = r.studentKey(names, email);
    const worked = r.required(hours, hoursOf, `is not a number of hours from 0 to ${MAX_WEEKLY_HOURS}`);
    const feeling = r.required(rating, ratingOf, "is not a whole number from 1 to 5");
    const when = r.optional(submitted);
    const whenIso = when === null ? null : parseDate(when, order);
    if (when !== null && whenIso === null) r.fail(submitted!, "is not a date");
    if (!key) return null;
    return {
      row: key.row, fullName: key.fullName, firstName: key.firstName, lastName: key.lastName, email: key.email,
      hours: worked, rating: feeling, reflection: r.optional(text), submitted: whenIso,
    };
  });
  return { file: file.name, rows, flawed, errors };
}
