import { z } from "zod";

// GET /schools (spec section 7, "Data"): id, name and district.

export const schoolSchema = z.object({ id: z.number().int(), name: z.string(), district: z.string() });
export type SchoolItem = z.infer<typeof schoolSchema>;
export const schoolsResponseSchema = z.object({ data: z.array(schoolSchema) });
export type SchoolsResponse = z.infer<typeof schoolsResponseSchema>;
