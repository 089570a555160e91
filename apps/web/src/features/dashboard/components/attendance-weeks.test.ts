import type { AttendanceRecordItem } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { weekRows } from "./attendance-weeks";

const record = (id: number, week: number, meeting_type: "mentor" | "advisor", status: AttendanceRecordItem["status"]): AttendanceRecordItem => ({
  id,
  cohort_id: 1,
  week_number: week,
  date: `2026-11-${String(10 + id).padStart(2, "0")}`,
  meeting_type,
  status,
  excused: false,
  formatted_week: `Week ${week}`,
});

describe("weekRows", () => {
  const records = [record(1, 2, "mentor", "absent"), record(2, 2, "advisor", "absent"), record(3, 1, "mentor", "present")];

  it("gives one row a week, in week order, mentor and advisor side by side", () => {
    expect(weekRows(records)).toEqual([
      { week: 1, label: "Week 1", mentor: "Present", advisor: "No meeting" },
      { week: 2, label: "Week 2", mentor: "Absent", advisor: "Absent" },
    ]);
  });

  it("adds the week of a follow-up note that has no meetings yet, so its mark shows as soon as the note is saved", () => {
    expect(weekRows(records, [3, 2]).map((w) => [w.week, w.label, w.mentor, w.advisor])).toEqual([
      [1, "Week 1", "Present", "No meeting"],
      [2, "Week 2", "Absent", "Absent"],
      [3, "Week 3", "No meeting", "No meeting"],
    ]);
  });
});
