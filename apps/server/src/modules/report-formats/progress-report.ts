import { parsePercent, parseWholeNumber } from "../../lib/csv/cell-values.js";
import { EMAIL_ALIASES, findNameColumns, openReport, readRows } from "./report-reader.js";
import type { ParsedReport, ProgressRow, ReportFile } from "./report-types.js";

const percent = (raw: string) => {
  const value = parsePercent(raw);
  return value !== null && value >= 0 && value <= 100 ? value : null;
};
const count = (raw: string) => {
  const value = parseWholeNumber(raw);
  return value !== null && value >= 0 ? value : null;
};

/** The learning platform's progress report: one row per student. */
export async function readProgressReport(file: ReportFile): Promise<ParsedReport<ProgressRow>> {
  const open = await openReport(file);
  const { columns } = open;
  const names = findNameColumns(columns, [], "Name");
  const email = columns.find({ label: "Email", aliases: EMAIL_ALIASES });
  const team = columns.find({ label: "Team", aliases: ["Team", "Team Name"] });
  const progress = columns.find({ label: "Progress", aliases: ["Progress"], required: true })!;
  const pastDue = columns.find({ label: "Past Due Assessments", aliases: ["Past Due Assessments", "Past Due"], required: true })!;
  const withoutDue = columns.find({
    label: "Assessments Without Due Dates",
    aliases: ["Assessments Without Due Dates", "Without Due Dates"],
    required: true,
  })!;

  const { rows, flawed, errors } = await readRows<ProgressRow>(open, (r) => {
    const key = r.studentKey(names, email);
    const value = r.required(progress, percent, "is not a percentage from 0 to 100");
    const due = r.required(pastDue, count, "is not a whole number of 0 or more");
    const without = r.required(withoutDue, count, "is not a whole number of 0 or more");
    if (!key) return null;
    return {
      row: key.row, fullName: key.fullName, firstName: key.firstName, lastName: key.lastName, email: key.email,
      team: r.optional(team), progress: value, pastDue: due, withoutDueDates: without,
    };
  });
  return { file: file.name, rows, flawed, errors };
}
