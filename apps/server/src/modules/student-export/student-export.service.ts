import { SCHOOL_STAFF, type StudentExport, studentExportFileName } from "@tally/contract";
import { strToU8, type Zippable, zipSync } from "fflate";
import type { ServerContext } from "../../context.js";
import { studentAccessRecord } from "../access-log/access-log.service.js";
import { studentAlerts } from "../alerts/alerts-export.service.js";
import { getStudentAttendance } from "../attendance/attendance.service.js";
import { openExport } from "../exports/exports.service.js";
import { renderStudentSummaryPdf } from "../reports/pdf-report.js";
import type { Caller } from "../scope/scope.service.js";
import { getStudentDetail } from "../students/students.service.js";
import { getWeeklyData } from "../weekly-data/weekly-data.service.js";
import { EXPORTED_TABLES, exportCsvFiles, summaryModel } from "./student-export-files.js";

/** One student's export: the ZIP's bytes and the name to save it under. */
export interface StudentExportFile {
  fileName: string;
  zip: Uint8Array;
}

/**
 * GET /students/:id/export: everything Tally holds about one student, read through the
 * student's own endpoints' services (so the caller's scope applies, and an unknown or hidden
 * student is a 404 before anything counts as an export). The export is recorded in the
 * record of access first, so the file's own access log lists it and the bulk-export alarm
 * counts the student once.
 */
export async function exportStudent(ctx: ServerContext, user: Caller, studentId: number): Promise<StudentExportFile> {
  const db = ctx.database.db;
  const student = await getStudentDetail(db, user, studentId);
  const ticket = await openExport(ctx, user, { action: "export", schoolIds: student.school_id === null ? [] : [student.school_id] });
  const [attendance, weeklyData, alerts] = await Promise.all([
    getStudentAttendance(db, user, studentId, {}),
    getWeeklyData(db, user, studentId, {}),
    studentAlerts(db, studentId),
  ]);
  ticket.record([studentId]);
  const now = ctx.clock.now();
  const doc: StudentExport = {
    format: "tally-student-export",
    version: 2,
    exportedAt: now.toISOString(),
    exportedBy: { who: SCHOOL_STAFF, role: user.role },
    student,
    attendance: attendance.data,
    weeklyData,
    // The student learns when and by which role, not which staff member from which address.
    accessLog: (await studentAccessRecord(ctx, studentId)).map((e) => ({
      at: e.at,
      who: SCHOOL_STAFF,
      role: e.role,
      action: e.action,
      ...(e.recipient === undefined ? {} : { recipient: e.recipient }),
    })),
    alerts,
  };
  const csv = exportCsvFiles(doc);
  const pdf = await renderStudentSummaryPdf(summaryModel(doc));
  const files: Zippable = {
    // pdfkit has compressed the PDF already: stored as it is.
    "summary.pdf": [new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength), { level: 0 }],
    "student.json": strToU8(`${JSON.stringify(doc, null, 2)}\n`),
  };
  for (const table of EXPORTED_TABLES) files[`${table}.csv`] = strToU8(csv[table]);
  const mtime = now;
  return { fileName: studentExportFileName(student, now.toISOString().slice(0, 10)), zip: zipSync(files, { level: 6, mtime }) };
}
