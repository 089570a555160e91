import { z } from "zod";

/** Why an erasure was done: kept in the audit row, so it must say something. */
const reasonField = z
  .string({ error: "reason is required" })
  .trim()
  .min(1, "reason is required")
  .max(500, "reason must be at most 500 characters");

/** DELETE /students/:id: `force` erases a student of a running cohort (a reason is always required). */
export const eraseStudentRequestSchema = z
  .object({
    reason: reasonField,
    force: z.boolean({ error: "force must be true or false" }).optional(),
  })
  .strict();
export type EraseStudentRequest = z.infer<typeof eraseStudentRequestSchema>;

/** DELETE /cohorts/:id/students: every student of the cohort. */
export const eraseCohortStudentsRequestSchema = z.object({ reason: reasonField }).strict();
export type EraseCohortStudentsRequest = z.infer<typeof eraseCohortStudentsRequestSchema>;

/** What an erasure removed, in rows; the same shape for one student and a cohort's students. */
export const erasureCountsSchema = z.object({
  students: z.number().int().nonnegative(),
  attendance: z.number().int().nonnegative(),
  weeklyData: z.number().int().nonnegative(),
  cohorts: z.number().int().nonnegative(),
  teams: z.number().int().nonnegative(),
});
export type ErasureCounts = z.infer<typeof erasureCountsSchema>;

/** The 409 of DELETE /students/:id without `force` for a student of a running cohort. */
export const ERASE_RUNNING_COHORT_MESSAGE =
  "The student is in a running cohort; erase with force and a reason, or wait until the cohort ends";
/** The 409 of DELETE /cohorts/:id/students for a cohort that is running. */
export const ERASE_COHORT_RUNNING_MESSAGE = "The cohort is running; its students can be erased once it has ended";
