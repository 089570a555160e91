import { z } from "zod";
import { accessActionSchema } from "./access-log.js";
import { alertRuleSchema, alertSeveritySchema, alertStateSchema, ALERT_EVENT_KINDS } from "./alerts.js";
import { attendanceRecordSchema } from "./attendance.js";
import { fileNamePart } from "./report-file-name.js";
import { roleSchema } from "./roles.js";
import { studentDetailSchema } from "./students.js";
import { weeklyDataItemSchema } from "./weekly-data.js";

// GET /students/:id/export (issue 32, a student's own export): a ZIP holding a PDF summary,
// a CSV per table and student.json, the document below. Its parts are the replies of the
// student's own endpoints, so a client that reads those reads this too.

/** One alert about the student as the export holds it. */
export const studentExportAlertSchema = z.object({
  id: z.number().int(),
  cohortId: z.number().int(),
  rule: alertRuleSchema,
  severity: alertSeveritySchema,
  state: alertStateSchema,
  evidence: z.string(),
  openedAt: z.string(),
  updatedAt: z.string(),
  conditionEndedAt: z.string().nullable(),
  dataWithdrawn: z.boolean(),
  timeline: z.array(z.object({ at: z.string(), kind: z.enum(ALERT_EVENT_KINDS), userId: z.number().int().nullable(), note: z.string().nullable() })),
});
export type StudentExportAlert = z.infer<typeof studentExportAlertSchema>;

/**
 * Issue 41: who handled the records, as the student's own export says it — "school staff" and
 * the role, never a staff member's name, account id or IP address.
 */
export const SCHOOL_STAFF = "school staff";
const staffSchema = z.object({ who: z.literal(SCHOOL_STAFF), role: roleSchema });

/** One entry of the record of access as the student's own export holds it. */
export const studentExportAccessSchema = z.object({
  at: z.string().describe("ISO 8601 time of the read or export"),
  who: staffSchema.shape.who,
  role: roleSchema.describe("the staff member's role at that time"),
  action: accessActionSchema,
  recipient: z.string().optional().describe("an e-mailed report's recipients (and copies)"),
});
export type StudentExportAccess = z.infer<typeof studentExportAccessSchema>;

/** The ZIP's student.json: everything Tally holds about one student. */
export const studentExportSchema = z.object({
  format: z.literal("tally-student-export"),
  /** 2 (issue 41): staff are "school staff" and a role; no names, account ids or addresses. */
  version: z.literal(2),
  exportedAt: z.string().describe("ISO 8601 time of the export"),
  exportedBy: staffSchema,
  /** Profile, cohorts and every team membership (the detail's reply). */
  student: studentDetailSchema,
  attendance: z.array(attendanceRecordSchema),
  /** Flags, reflections and advisor notes per week. */
  weeklyData: z.array(weeklyDataItemSchema),
  /** Who viewed or exported this student's records, newest first (this export included). */
  accessLog: z.array(studentExportAccessSchema),
  /** Issue 30: the early-warning alerts raised about the student, each with its timeline (notes included). */
  alerts: z.array(studentExportAlertSchema),
});
export type StudentExport = z.infer<typeof studentExportSchema>;

/** "Student-export-{first}-{last}-{YYYY-MM-DD}.zip"; a name with no Latin letter keeps the id. */
export function studentExportFileName(student: { id: number; first_name: string; last_name: string }, day: string): string {
  const name = fileNamePart(`${student.first_name} ${student.last_name}`) || `student-${student.id}`;
  return `Student-export-${name}-${day}.zip`;
}
