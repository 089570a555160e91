import { parseDate, parseWholeNumber } from "../../lib/csv/cell-values.js";
import { EMAIL_ALIASES, fileDateOrder, findNameColumns, openReport, readRows } from "./report-reader.js";
import { InternedText } from "../../lib/interned-text.js";
import type { FlawedRow, MeetingRow, ParsedReport, ReportFile } from "./report-types.js";

// A Map, not an object literal: a cell reading "constructor" must not find Object's.
const STATUSES = new Map<string, MeetingRow["status"]>([
  ["present", "present"],
  ["p", "present"],
  ["late", "late"],
  ["l", "late"],
  ["tardy", "late"],
  ["absent", "absent"],
  ["a", "absent"],
  ["excused", "absent"],
]);

/** "Mentor", "mentor meeting", "Advisor Check-in" → the meeting type; by the word, not the whole text. */
export function meetingTypeOf(raw: string): MeetingRow["meetingType"] | null {
  const text = raw.toLowerCase();
  const mentor = /\bmentor/.test(text);
  const advisor = /\badvis[eo]r/.test(text);
  if (mentor === advisor) return null;
  return mentor ? "mentor" : "advisor";
}

export function meetingStatusOf(raw: string): MeetingRow["status"] | null {
  return STATUSES.get(raw.trim().toLowerCase()) ?? null;
}

/** Only the word `Excused` itself: `A` and `Absent` are absences without an excuse. */
function excusedOf(raw: string | null, status: MeetingRow["status"] | null): boolean {
  return status === "absent" && raw !== null && raw.trim().toLowerCase() === "excused";
}

/** The meeting attendance report of the weekly import: one row per student per meeting. */
export async function readMeetingReport(file: ReportFile): Promise<ParsedReport<MeetingRow>> {
  const open = await openReport(file);
  const { columns } = open;
  const names = findNameColumns(columns, [], "Student Name");
  const email = columns.find({ label: "Email", aliases: EMAIL_ALIASES });
  const studentId = columns.find({ label: "Student ID", aliases: ["Student ID"] });
  const school = columns.find({ label: "School", aliases: ["School", "School Name"] });
  const team = columns.find({ label: "Team", aliases: ["Team", "Team Name"] });
  const date = columns.find({ label: "Meeting Date", aliases: ["Meeting Date", "Date"], required: true })!;
  const type = columns.find({ label: "Meeting Type", aliases: ["Meeting Type", "Type"], required: true })!;
  const status = columns.find({ label: "Status", aliases: ["Status", "Attendance Status", "Attendance"], required: true })!;
  const notes = columns.find({ label: "Advisor Notes", aliases: ["Advisor Notes", "Notes"] });
  const order = await fileDateOrder(open, [date]);
  const text = new InternedText();

  const { rows, flawed, errors } = await readRows<MeetingRow>(open, (r): FlawedRow<MeetingRow> | null => {
    const key = r.studentKey(names, email);
    const id = r.optional(studentId);
    const idValue = id === null ? null : parseWholeNumber(id);
    if (id !== null && (idValue === null || idValue < 1)) r.fail(studentId!, "is not a student id");
    const isoDate = r.required(date, (v) => parseDate(v, order), "is not a date");
    const meetingType = r.required(type, meetingTypeOf, "is not Mentor or Advisor");
    const attendance = r.required(status, meetingStatusOf, "is not Present, Late, Absent or Excused");
    // A row with a bad value still names its student (its error names them); the import leaves it out.
    if (!key) return null;
    return {
      row: key.row,
      fullName: key.fullName,
      firstName: key.firstName,
      lastName: key.lastName,
      email: key.email,
      studentId: idValue,
      school: text.of(r.optional(school)),
      team: text.of(r.optional(team)),
      date: text.of(isoDate),
      meetingType,
      status: attendance,
      excused: excusedOf(r.optional(status), attendance),
      advisorNotes: r.optional(notes),
    };
  });
  return { file: file.name, rows, flawed, errors };
}
