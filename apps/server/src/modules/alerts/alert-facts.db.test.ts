import { describe, expect, it } from "vitest";
import { buildAttendance, buildCohort, buildSchool, buildStudent } from "../../../test/factories.js";
import { useTestDatabase } from "../../../test/test-app.js";
import { findMeetings } from "./alert-facts.repository.js";

// The rules' meetings come back packed in one text per student and are read in place: every
// field of every record, two-digit weeks, an excused absence, each student's by date with the
// mentor meeting first.

const database = useTestDatabase();

describe("findMeetings", () => {
  it("decodes every record of each student, in date order, mentor before advisor", async () => {
    const db = database.db;
    const school = await buildSchool(db);
    const cohort = await buildCohort(db, { startDate: "2026-01-05", endDate: "2026-04-24" });
    const [ana, ben] = [await buildStudent(db, { schoolId: school.id, cohortIds: [cohort.id] }), await buildStudent(db, { schoolId: school.id, cohortIds: [cohort.id] })];
    const at = { cohortId: cohort.id, schoolId: school.id };
    await buildAttendance(db, [
      { ...at, studentId: ana!.id, weekNumber: 12, date: "2026-03-24", meetingType: "advisor", status: "late" },
      { ...at, studentId: ana!.id, weekNumber: 1, date: "2026-01-06", meetingType: "advisor", status: "absent" },
      { ...at, studentId: ana!.id, weekNumber: 1, date: "2026-01-06", meetingType: "mentor", status: "present" },
      { ...at, studentId: ben!.id, weekNumber: 12, date: "2026-03-24", meetingType: "mentor", status: "absent" },
    ]);
    await db.updateTable("attendance_records").set({ excused: true }).where("student_id", "=", ana!.id).where("status", "=", "absent").execute();

    const meetings = await findMeetings(db, cohort.id, [ana!.id, ben!.id]);
    expect(meetings.get(ana!.id)).toEqual([
      { date: "2026-01-06", week: 1, meetingType: "mentor", status: "present", excused: false },
      { date: "2026-01-06", week: 1, meetingType: "advisor", status: "absent", excused: true },
      { date: "2026-03-24", week: 12, meetingType: "advisor", status: "late", excused: false },
    ]);
    expect(meetings.get(ben!.id)).toEqual([{ date: "2026-03-24", week: 12, meetingType: "mentor", status: "absent", excused: false }]);
    expect(await findMeetings(db, cohort.id, [])).toEqual(new Map());
  });
});
