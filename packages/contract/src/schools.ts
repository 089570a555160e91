import { z } from "zod";

// GET /schools (spec section 7, "Data"): id, name and district.

export const schoolSchema = z.object({ id: z.number().int(), name: z.string(), district: z.string() });
export type SchoolItem = z.infer<typeof schoolSchema>;
export const schoolsResponseSchema = z.object({ data: z.array(schoolSchema) });
export type SchoolsResponse = z.infer<typeof schoolsResponseSchema>;

// Admin Settings, System Settings (issue 10): the admin list and the add and rename calls.

export const SCHOOL_NAME_MAX = 100;
export const SCHOOL_DISTRICT_MAX = 100;

const schoolNameField = z
  .string({ error: "School name is required" })
  .trim()
  .min(1, "School name is required")
  .max(SCHOOL_NAME_MAX, `School name must be at most ${SCHOOL_NAME_MAX} characters`);
/** Empty means "no district" (the column's default). */
const districtField = z
  .string({ error: "District must be text" })
  .trim()
  .max(SCHOOL_DISTRICT_MAX, `District must be at most ${SCHOOL_DISTRICT_MAX} characters`);

/** POST /schools. */
export const createSchoolRequestSchema = z
  .object({ name: schoolNameField, district: districtField.optional() })
  .strict();
export type CreateSchoolRequest = z.infer<typeof createSchoolRequestSchema>;

/** PATCH /schools/:id: fields left out are kept; at least one is needed. */
export const updateSchoolRequestSchema = z
  .object({ name: schoolNameField.optional(), district: districtField.optional() })
  .strict()
  .refine((b) => b.name !== undefined || b.district !== undefined, "Give a name or a district to change");
export type UpdateSchoolRequest = z.infer<typeof updateSchoolRequestSchema>;

/** A school as the admin list shows it: with the number of students whose school it is. */
export const adminSchoolSchema = schoolSchema.extend({ student_count: z.number().int() });
export type AdminSchoolItem = z.infer<typeof adminSchoolSchema>;
/** GET /schools/admin (admins): every school but the demo school, by name. */
export const adminSchoolsResponseSchema = z.object({ data: z.array(adminSchoolSchema) });
export type AdminSchoolsResponse = z.infer<typeof adminSchoolsResponseSchema>;
/** Reply of POST /schools and PATCH /schools/:id. */
export const schoolMutationResponseSchema = z.object({ data: adminSchoolSchema });
export type SchoolMutationResponse = z.infer<typeof schoolMutationResponseSchema>;

/** 409 text of a second school with the same name (names are unique ignoring case). */
export const duplicateSchoolNameMessage = (name: string) => `A school named "${name}" already exists`;
