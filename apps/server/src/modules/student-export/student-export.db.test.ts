import { PRIVACY_MESSAGES, studentExportSchema } from "@tally/contract";
import { parse } from "csv-parse/sync";
import { unzipSync, strFromU8 } from "fflate";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { buildAttendance, buildCohort, buildSchool, buildStudent, buildTeam, buildUser, buildWeeklyData, type BuiltStudent } from "../../../test/factories.js";
import { buildAlert } from "../../../test/alert-factory.js";
import { pdfText } from "../../../test/report-world.js";
import { loginAs, useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";
import { accessRecorder } from "../access-log/access-log.service.js";
import { DERIVED_STUDENT_TABLES, EXPORTED_TABLES } from "./student-export-files.js";

const t = useTestApp({ clock: manualClock(new Date("2025-02-10T12:00:00Z")) });
const headers: Record<"admin" | "school" | "district", { authorization: string }> = {
  admin: { authorization: "" },
  school: { authorization: "" },
  district: { authorization: "" },
};
let schoolId = 0;
let cohortId = 0;
let teamId = 0;
let zoe: BuiltStudent;
let other: BuiltStudent;
let adminName = "";

// Cells a spreadsheet would run as formulas if they were written as they are.
const FORMULAS = { lastName: "=HYPERLINK(\"http://x.test\")", reflection: "+1+cmd|' /C calc'!A0", note: "@SUM(A1:A9)", flag: "-2+3" };

async function withRecords(firstName: string, lastName: string, marker: string): Promise<BuiltStudent> {
  const student = await buildStudent(t.db, { schoolId, firstName, lastName, email: `${marker}@example.test`, cohortIds: [cohortId], teams: [teamId] });
  await buildAttendance(
    t.db,
    [1, 2].map((weekNumber) => ({ studentId: student.id, cohortId, schoolId, teamId, weekNumber, meetingType: "mentor" as const, status: "late" as const })),
  );
  await buildWeeklyData(t.db, [
    {
      studentId: student.id,
      cohortId,
      weekNumber: 1,
      flags: [{ code: "low_hours", text: `${FORMULAS.flag} ${marker}` }],
      reflection: `${FORMULAS.reflection} ${marker} reflected`,
      advisorNotes: `${FORMULAS.note} note on ${marker}`,
      hoursReported: 7.5,
    },
  ]);
  // An early-warning alert with a follow-up note in its timeline (issue 30).
  const alert = await buildAlert(t.db, {
    studentId: student.id,
    cohortId,
    state: "resolved",
    evidence: `Missed 2 meetings in a row: ${marker} evidence`,
    openedAt: "2025-02-03T08:00:00Z",
  });
  await t.db
    .insertInto("alert_events")
    .values([
      { alert_id: alert.id, at: "2025-02-03T08:00:00Z", kind: "opened", level: 2 },
      { alert_id: alert.id, at: "2025-02-04T08:00:00Z", kind: "resolved", note: `${FORMULAS.note} called ${marker}'s family` },
    ])
    .execute();
  return student;
}

beforeAll(async () => {
  schoolId = (await buildSchool(t.db, { name: "Alder High" })).id;
  cohortId = (await buildCohort(t.db, { name: "Spring", startDate: "2025-01-06", endDate: "2025-03-28" })).id;
  teamId = (await buildTeam(t.db, { schoolId, cohortId, name: "Otters" })).id;
  const admin = await buildUser(t.db, { role: "admin" });
  adminName = admin.username;
  headers.admin.authorization = (await loginAs(t.app, admin)).headers.authorization;
  headers.school.authorization = (await loginAs(t.app, await buildUser(t.db, { role: "school_user", schoolId }))).headers.authorization;
  headers.district.authorization = (await loginAs(t.app, await buildUser(t.db, { role: "district_user", schoolIds: [schoolId] }))).headers.authorization;
  zoe = await withRecords("Zoë", FORMULAS.lastName, "zoemarker");
  other = await withRecords("Quentin", "Otherstudent", "othermarker");
  // Another student's read, which must not show in Zoë's export.
  expect((await t.app.inject({ method: "GET", url: `/api/students/${other.id}`, headers: headers.school })).statusCode).toBe(200);
});

const exportOf = (id: number | string, who: keyof typeof headers = "admin") =>
  t.app.inject({ method: "GET", url: `/api/students/${id}/export`, headers: headers[who] });

/** Tables of the migrated schema with a student_id column or a foreign key to students. */
async function studentLinkedTables(): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.columns
     where table_schema = current_schema() and column_name = 'student_id'
    union
    select c.relname as name
      from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_class r on r.oid = k.confrelid
      join pg_namespace n on n.oid = r.relnamespace
     where k.contype = 'f' and r.relname = 'students' and n.nspname = current_schema()`.execute(t.db);
  return rows.map((r) => r.name).sort();
}

describe("GET /api/students/:id/export", () => {
  it("exports every table that names students (a new student-linked table fails this until it is exported)", async () => {
    const linked = await studentLinkedTables();
    // The query itself finds the tables it should (memberships, attendance, weekly data, the record of access).
    expect(linked).toEqual(expect.arrayContaining(["student_cohorts", "student_teams", "attendance_records", "weekly_data", "access_log"]));
    // A derived table is left out only for the tables it copies, and those must be exported.
    const missing = linked.filter((name) => !(EXPORTED_TABLES as readonly string[]).includes(name) && !(name in DERIVED_STUDENT_TABLES));
    expect(missing, "student-linked tables the export leaves out").toEqual([]);
    expect(EXPORTED_TABLES).toContain("students");
    for (const [name, sources] of Object.entries(DERIVED_STUDENT_TABLES)) {
      expect(linked, `${name} is still a student-linked table`).toContain(name);
      expect(EXPORTED_TABLES, name).toEqual(expect.arrayContaining([...sources]));
    }
  });

  it("answers a ZIP holding the student's rows of every table, and nobody else's", async () => {
    const res = await exportOf(zoe.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="Student-export-Zoe-HYPERLINK-http-x-test-2025-02-10.zip"`);
    const files = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(files).sort()).toEqual(["student.json", "summary.pdf", ...EXPORTED_TABLES.map((n) => `${n}.csv`)].sort());

    for (const table of EXPORTED_TABLES) {
      const bytes = files[`${table}.csv`] as Uint8Array;
      expect([...bytes.subarray(0, 3)], `${table} starts with the UTF-8 byte order mark`).toEqual([0xef, 0xbb, 0xbf]);
      // The decoder drops the byte order mark.
      const text = strFromU8(bytes);
      expect(text, table).not.toMatch(/othermarker|Otherstudent|Quentin/);
      const [head, ...rows] = parse(text, { relax_column_count: false }) as string[][];
      expect(head?.[0], table).toBe("student_id");
      expect(rows.length, `${table} has the student's rows`).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row[0], table).toBe(String(zoe.id));
        for (const cell of row) expect(/^[=+\-@]/.test(cell) && !/^-?\d+(\.\d+)?$/.test(cell), `${table}: ${cell}`).toBe(false);
      }
    }
    const weekly = parse(strFromU8(files["weekly_data.csv"] as Uint8Array), { columns: true }) as Array<Record<string, string>>;
    expect(weekly[0]).toMatchObject({
      reflection: `'${FORMULAS.reflection} zoemarker reflected`,
      advisor_notes: `'${FORMULAS.note} note on zoemarker`,
      flags: `low_hours: ${FORMULAS.flag} zoemarker`,
      hours_reported: "7.5",
    });
    const attendance = parse(strFromU8(files["attendance_records.csv"] as Uint8Array), { columns: true }) as Array<Record<string, string>>;
    expect(attendance.map((a) => [a.week_number, a.meeting_type, a.status])).toEqual([["1", "mentor", "late"], ["2", "mentor", "late"]]);

    const alerts = parse(strFromU8(files["alerts.csv"] as Uint8Array), { columns: true }) as Array<Record<string, string>>;
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ rule: "consecutive_misses", state: "resolved", evidence: "Missed 2 meetings in a row: zoemarker evidence" });
    expect(alerts[0]?.timeline).toContain(`resolved: ${FORMULAS.note} called zoemarker's family`);

    const doc = studentExportSchema.parse(JSON.parse(strFromU8(files["student.json"] as Uint8Array)));
    expect(doc.alerts.map((a) => a.timeline.map((e) => e.kind))).toEqual([["opened", "resolved"]]);
    expect(doc.student).toMatchObject({ id: zoe.id, first_name: "Zoë", last_name: FORMULAS.lastName, school_name: "Alder High" });
    expect(doc.student.activeTeam?.name).toBe("Otters");
    expect(doc.student.cohorts.map((c) => c.name)).toEqual(["Spring"]);
    expect(doc.attendance).toHaveLength(2);
    expect(doc.weeklyData.map((w) => w.flags)).toEqual([[{ code: "low_hours", text: `${FORMULAS.flag} zoemarker` }]]);
    // The export itself is in the file's own record of access.
    expect(doc.accessLog.map((a) => a.action)).toContain("export");
    expect(JSON.stringify(doc)).not.toMatch(/othermarker|Otherstudent/);

    const pdf = await pdfText(Buffer.from(files["summary.pdf"] as Uint8Array));
    expect(pdf).toContain(`Zoë ${FORMULAS.lastName}`);
    expect(pdf).toContain("zoemarker reflected");
    expect(pdf).toContain("Otters");
    for (const section of ["Profile", "Cohorts and teams", "Attendance", "Who viewed or exported these records"]) {
      expect(pdf).toContain(section);
    }
    expect(pdf).not.toMatch(/othermarker|Quentin/);
  });

  it("is recorded as one export of one student in the record of access", async () => {
    const exportRows = async () =>
      (await t.db.selectFrom("access_log").select("student_id").where("action", "=", "export").execute()).map((r) => r.student_id);
    const before = await exportRows();
    expect((await exportOf(other.id)).statusCode).toBe(200);
    const log = await t.app.inject({ method: "GET", url: `/api/students/${other.id}/access-log?action=export`, headers: headers.admin });
    expect(log.statusCode).toBe(200);
    expect(log.json().data).toEqual([expect.objectContaining({ action: "export", role: "admin" })]);
    // One row, naming this student only: the bulk-export alarm counts it as one student.
    const after = await exportRows();
    expect(after.length - before.length).toBe(1);
    expect(after.filter((id) => id === other.id)).toHaveLength(1);
  });

  it("refuses school and district users (403), an unknown student (404) and a bad id (400)", async () => {
    expect((await exportOf(zoe.id, "school")).statusCode).toBe(403);
    expect((await exportOf(zoe.id, "district")).statusCode).toBe(403);
    expect((await exportOf(999_999)).statusCode).toBe(404);
    expect((await exportOf("abc")).statusCode).toBe(400);
    expect((await t.app.inject({ method: "GET", url: `/api/students/${zoe.id}/export` })).statusCode).toBe(401);
  });

  it("names no staff member and no address: who read or exported the records is 'school staff' and the role (issue 41)", async () => {
    const reader = await buildUser(t.db, { role: "school_user", schoolId, username: "readerstaffname" });
    const readerHeaders = (await loginAs(t.app, reader)).headers;
    expect((await t.app.inject({ method: "GET", url: `/api/students/${zoe.id}`, headers: readerHeaders })).statusCode).toBe(200);
    // The staff's own record of access does hold the names and the address.
    await accessRecorder(t.ctx).flush();
    const staffView = await t.db.selectFrom("access_log").select(["username", "address"]).where("student_id", "=", zoe.id).execute();
    expect(staffView).toEqual(expect.arrayContaining([{ username: "readerstaffname", address: "127.0.0.1" }]));

    const res = await exportOf(zoe.id);
    expect(res.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const json = strFromU8(files["student.json"] as Uint8Array);
    const doc = studentExportSchema.parse(JSON.parse(json));
    expect(doc.exportedBy).toEqual({ who: "school staff", role: "admin" });
    expect(doc.accessLog.length).toBeGreaterThanOrEqual(2);
    for (const entry of doc.accessLog) expect(Object.keys(entry).sort()).toEqual(["action", "at", "role", "who"]);
    expect(doc.accessLog.map((e) => [e.who, e.role, e.action])).toEqual(
      expect.arrayContaining([["school staff", "school_user", "view"], ["school staff", "admin", "export"]]),
    );
    const csv = strFromU8(files["access_log.csv"] as Uint8Array);
    expect(csv.split(/\r?\n/)[0]?.replace("\uFEFF", "")).toBe("student_id,at,who,role,action,recipient");
    const pdf = await pdfText(Buffer.from(files["summary.pdf"] as Uint8Array));
    expect(pdf).toContain("School staff (School User)");
    for (const [name, text] of [["student.json", json], ["access_log.csv", csv], ["summary.pdf", pdf]] as const) {
      expect(text, name).not.toContain("127.0.0.1");
      expect(text, name).not.toContain("readerstaffname");
      expect(text, name).not.toContain(adminName);
    }
  });

  // Last: the alarm it raises stays for the rest of the file.
  it("counts toward the bulk-export alarm, and is refused while a blocking alarm stands", async () => {
    const put = await t.app.inject({
      method: "PUT",
      url: "/api/settings/privacy",
      headers: headers.admin,
      payload: { retentionYears: null, bulkExportThreshold: 1, blockOnAlarm: true },
    });
    expect(put.statusCode).toBe(200);
    // This admin has exported Zoë and the other student by now: two students, over the threshold of one.
    expect((await exportOf(zoe.id)).statusCode).toBe(200);
    await accessRecorder(t.ctx).flush();
    const refused = await exportOf(zoe.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: PRIVACY_MESSAGES.exportsBlocked });
  });
});
