import { z } from "zod";
import { dbIdSchema, isCalendarDay } from "./common.js";
import { dashboardFilterQuerySchema } from "./dashboard-filter.js";

// GET /attendance/student/:id and GET /attendance/cohort-trends. Dates travel as YYYY-MM-DD strings.

const dateOnly = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD")
  .refine(isCalendarDay, { message: "must be a real calendar date" });

export const MEETING_TYPES = ["mentor", "advisor"] as const;
export const ATTENDANCE_STATUSES = ["present", "late", "absent"] as const;

// The spec's clients send it ("district cohort and attendance requests add respectVisibility=true").
const ignoredRespectVisibility = z
  .string()
  .max(10)
  .optional()
  .describe("Accepted for the spec's clients and ignored: a student's records follow the caller's own scope");

export const studentAttendanceQuerySchema = z
  .object({
    cohortId: dbIdSchema.optional(),
    startDate: dateOnly.optional(),
    endDate: dateOnly.optional(),
    respectVisibility: ignoredRespectVisibility,
  })
  .refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, {
    message: "startDate must not be after endDate",
    path: ["startDate"],
  });
export type StudentAttendanceQuery = z.infer<typeof studentAttendanceQuerySchema>;

export const attendanceRecordSchema = z.object({
  id: z.number().int(),
  cohort_id: z.number().int(),
  week_number: z.number().int(),
  date: z.string(),
  meeting_type: z.enum(MEETING_TYPES),
  status: z.enum(ATTENDANCE_STATUSES),
  /** The report said Excused: status stays absent (every count treats it so), shown as excused. */
  excused: z.boolean(),
  /** "Week N". */
  formatted_week: z.string(),
});
export type AttendanceRecordItem = z.infer<typeof attendanceRecordSchema>;

/** A meeting type in words: "Mentor", "Advisor". */
export function meetingTypeLabel(type: (typeof MEETING_TYPES)[number]): string {
  return type === "mentor" ? "Mentor" : "Advisor";
}

/** A record's status in words, for the attendance list and the student's export: "Absent (excused)". */
export function attendanceStatusLabel(record: { status: AttendanceRecordItem["status"]; excused: boolean }): string {
  const word = record.status.charAt(0).toUpperCase() + record.status.slice(1);
  return record.status === "absent" && record.excused ? `${word} (excused)` : word;
}

const presentLate = z.object({ present: z.number().int(), late: z.number().int() });
export const attendanceWeekSchema = z.object({ week: z.number().int(), mentor: presentLate, advisor: presentLate });
export type AttendanceWeek = z.infer<typeof attendanceWeekSchema>;

export const studentAttendanceResponseSchema = z.object({
  data: z.array(attendanceRecordSchema),
  /** Counts per week, ascending. */
  weeks: z.array(attendanceWeekSchema),
});
export type StudentAttendanceResponse = z.infer<typeof studentAttendanceResponseSchema>;

export const cohortTrendsQuerySchema = dashboardFilterQuerySchema.extend({
  meetingType: z.enum(["mentor", "advisor", "both"], { error: "meetingType must be mentor, advisor or both" }).default("both"),
  // The spec's trend call sends these two as well: accepted, never read.
  school_name: z.string().max(300).optional().describe("Accepted for the spec's clients and ignored: the school is school_id"),
  isAdminUser: z.string().max(10).optional().describe("Accepted for the spec's clients and ignored: the caller's role comes from the access token"),
});
export type CohortTrendsQuery = z.infer<typeof cohortTrendsQuerySchema>;
/** The chart's meeting type choice. */
export type MeetingTypeFilter = CohortTrendsQuery["meetingType"];

/** Percentages (0-100, rounded) of that week's records of the meeting type; null = no records (or type not asked for). */
export const trendPointSchema = z.object({
  week: z.number().int(),
  mentorPresent: z.number().int().nullable(),
  mentorLate: z.number().int().nullable(),
  advisorPresent: z.number().int().nullable(),
  advisorLate: z.number().int().nullable(),
});
export type TrendPoint = z.infer<typeof trendPointSchema>;
export const cohortTrendsResponseSchema = z.object({ data: z.array(trendPointSchema) });
export type CohortTrendsResponse = z.infer<typeof cohortTrendsResponseSchema>;

// PUT /attendance/:id: a correction of one record (issue 30's "attendance edit"), on the same
// terms as editing the student (admins always; others where student editing is on).
export const updateAttendanceRequestSchema = z
  .strictObject({
    status: z.enum(ATTENDANCE_STATUSES, { error: "status must be present, late or absent" }),
    /** Only an absent meeting can be excused; omitted means not excused. */
    excused: z.boolean({ error: "excused must be true or false" }).default(false),
  })
  .refine((b) => !b.excused || b.status === "absent", { message: "Only an absent meeting can be excused", path: ["excused"] });
export type UpdateAttendanceRequest = z.input<typeof updateAttendanceRequestSchema>;
