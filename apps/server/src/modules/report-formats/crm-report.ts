import { parseDate } from "../../lib/csv/cell-values.js";
import { EMAIL_ALIASES, fileDateOrder, findNameColumns, openReport, readRows } from "./report-reader.js";
import type { CrmRow, ParsedReport, ReportFile } from "./report-types.js";

// A Map, not an object literal: a cell reading "constructor" must not find Object's.
const STATUSES = new Map<string, CrmRow["status"]>([
  ["completed", "completed"],
  ["absent", "absent"],
  ["excused", "excused"],
  ["enrolled", "enrolled"],
]);

/** The CRM's benefit disbursements (flag uploader): one row per scheduled session. */
export async function readCrmReport(file: ReportFile): Promise<ParsedReport<CrmRow>> {
  const open = await openReport(file);
  const { columns } = open;
  const names = findNameColumns(columns, ["Enrollee Name"], "Enrollee Name");
  const assignment = columns.find({ label: "Benefit Assignment ID", aliases: ["Benefit Assignment ID"], required: true })!;
  const status = columns.find({ label: "Disbursement Status", aliases: ["Disbursement Status", "Status"], required: true })!;
  const email = columns.find({ label: "Enrollee Email", aliases: ["Enrollee Email", ...EMAIL_ALIASES] });
  const session = columns.find({ label: "Benefit Session", aliases: ["Benefit Session", "Session"] });
  const date = columns.find({ label: "Session Date", aliases: ["Session Date", "Date"] });
  const order = await fileDateOrder(open, [date]);

  const { rows, flawed, errors } = await readRows<CrmRow>(open, (r) => {
    const id = r.cell(assignment);
    // The ID is mandatory on every row and tells enrollees apart; the name is not (rule 4 matches by the ID first).
    const key = r.studentKey(names, email, id !== "");
    if (id === "") r.fail(assignment, "is empty (every row needs a Benefit Assignment ID)");
    const state = r.required(status, (v) => STATUSES.get(v.toLowerCase()) ?? null, "is not Completed, Absent, Excused or Enrolled");
    const when = r.optional(date);
    const whenIso = when === null ? null : parseDate(when, order);
    if (when !== null && whenIso === null) r.fail(date!, "is not a date");
    if (!key) return null;
    return {
      row: key.row, fullName: key.fullName, firstName: key.firstName, lastName: key.lastName, email: key.email,
      benefitAssignmentId: id === "" ? null : id, status: state, session: r.optional(session), date: whenIso,
    };
  });
  return { file: file.name, rows, flawed, errors };
}
