import { z } from "zod";
import { PERMISSIONS } from "./permissions.js";
import { roleSchema } from "./roles.js";
import { schoolRefSchema } from "./common.js";

export const permissionsMapSchema = z.object(
  Object.fromEntries(PERMISSIONS.map((p) => [p, z.boolean()])) as {
    [K in (typeof PERMISSIONS)[number]]: z.ZodBoolean;
  },
);

/** The signed-in user as the profile and login calls return it. */
export const sessionUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  role: roleSchema,
  is_active: z.boolean(),
  email_verified: z.boolean(),
  school_id: z.number().int().nullable(),
  school_name: z.string().nullable(),
  /** Every school the user may see (one for school_user, assigned ones for district_user). */
  accessibleSchoolIds: z.array(z.number().int()),
  accessibleSchools: z.array(schoolRefSchema),
  permissions: permissionsMapSchema,
  created_at: z.string(),
  last_login: z.string().nullable(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;
