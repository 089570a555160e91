import { z } from "zod";
import { emailPattern } from "./auth.js";
import { DATES_OUT_OF_ORDER, isoDaySchema, MAX_DB_ID, pageLimitSchema, pageOffsetSchema, schoolRefSchema } from "./common.js";
import { LIMITS } from "./limits.js";
import { MESSAGES } from "./messages.js";
import { ROLES, roleSchema } from "./roles.js";

// User administration (spec sections 2, 5 and 7 "Users"): GET/PUT/DELETE /users/:id and friends.

/** A database id: anything larger would overflow the integer column (a 500, not a 400). */
const dbId = z.number({ error: "must be a school id" }).int().positive().max(MAX_DB_ID);

export const userIdParamSchema = z.object({
  id: z.coerce.number({ error: "The user id must be a positive whole number" }).int().positive().max(MAX_DB_ID),
});
export type UserIdParam = z.infer<typeof userIdParamSchema>;

export const usernameFieldSchema = z
  .string({ error: MESSAGES.usernameTooShort })
  .trim()
  .min(LIMITS.minUsernameLength, MESSAGES.usernameTooShort)
  .max(64, "Username must be at most 64 characters");
export const emailFieldSchema = z
  .string({ error: MESSAGES.invalidEmail })
  .trim()
  .max(320, MESSAGES.invalidEmail)
  .regex(emailPattern, MESSAGES.invalidEmail);
export const roleFieldSchema = z.enum(ROLES, { error: MESSAGES.selectRole });
export const adminPasswordSchema = z
  .string({ error: MESSAGES.passwordTooShort })
  .min(LIMITS.minPasswordLength, MESSAGES.passwordTooShort)
  .max(1024, "Password must be at most 1024 characters");
const schoolIdsField = z.array(dbId).max(1000, "Too many schools selected");

/** One row of GET /users. school_ids/school_names: the one school of a school user, a district user's list. */
export const userListItemSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  role: roleSchema,
  school_id: z.number().int().nullable(),
  school_name: z.string().nullable(),
  school_ids: z.array(z.number().int()),
  school_names: z.array(z.string()),
  school_count: z.number().int(),
  is_active: z.boolean(),
  created_at: z.string(),
  last_login: z.string().nullable(),
  email_verified: z.boolean(),
});
export type UserListItem = z.infer<typeof userListItemSchema>;

export const usersListResponseSchema = z.object({ data: z.array(userListItemSchema) });
export type UsersListResponse = z.infer<typeof usersListResponseSchema>;

/**
 * PUT /users/:id. Every field is optional (`{is_active: true}` alone reactivates); the
 * school rules of spec section 5 are checked against the resulting account on the server,
 * and here whenever the request itself names the role and the school(s).
 */
export const updateUserRequestSchema = z
  .object({
    username: usernameFieldSchema.optional(),
    email: emailFieldSchema.optional(),
    role: roleFieldSchema.optional(),
    school_id: dbId.nullish(),
    school_ids: schoolIdsField.nullish(),
    is_active: z.boolean({ error: "is_active must be true or false" }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.role === "school_user" && v.school_id === null) {
      ctx.addIssue({ code: "custom", path: ["school_id"], message: MESSAGES.selectSchool });
    }
    if (v.role === "district_user" && v.school_ids && v.school_ids.length === 0) {
      ctx.addIssue({ code: "custom", path: ["school_ids"], message: MESSAGES.selectSchools });
    }
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), "Nothing to update");
export type UpdateUserRequest = z.infer<typeof updateUserRequestSchema>;

/** The Edit User form (spec section 5 "Edit user"): every field required, schools by role. */
export const editUserFormSchema = z
  .object({
    username: usernameFieldSchema,
    email: emailFieldSchema,
    role: roleFieldSchema,
    school_id: dbId.nullish(),
    school_ids: schoolIdsField.nullish(),
  })
  .superRefine((v, ctx) => {
    if (v.role === "school_user" && !v.school_id) {
      ctx.addIssue({ code: "custom", path: ["school_id"], message: MESSAGES.selectSchool });
    }
    if (v.role === "district_user" && !(v.school_ids && v.school_ids.length > 0)) {
      ctx.addIssue({ code: "custom", path: ["school_ids"], message: MESSAGES.selectSchools });
    }
  });
export type EditUserForm = z.infer<typeof editUserFormSchema>;

/** Reply of every call that changes one account. */
export const userMutationResponseSchema = z.object({ message: z.string(), user: userListItemSchema });
export type UserMutationResponse = z.infer<typeof userMutationResponseSchema>;

/** POST /users/:id/reset-password: with a password it is set; without, a reset link is e-mailed. */
export const adminResetPasswordRequestSchema = z.object({ password: adminPasswordSchema.nullish() });
export type AdminResetPasswordRequest = z.infer<typeof adminResetPasswordRequestSchema>;

/** The Reset Password modal (spec section 5 "Reset password (admin action)"). */
export const adminResetPasswordFormSchema = z
  .object({ password: adminPasswordSchema, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    path: ["confirmPassword"],
    message: MESSAGES.passwordsDoNotMatch,
  });

export const adminResetPasswordResponseSchema = z.object({ message: z.string() });
export type AdminResetPasswordResponse = z.infer<typeof adminResetPasswordResponseSchema>;

/** PUT /users/:id/school: a school user's one school. */
export const setUserSchoolRequestSchema = z.object({
  school_id: z.number({ error: MESSAGES.selectSchool }).int().positive(MESSAGES.selectSchool).max(MAX_DB_ID),
});
export type SetUserSchoolRequest = z.infer<typeof setUserSchoolRequestSchema>;

/** GET /users/:id/schools. */
export const userSchoolsResponseSchema = z.object({ data: z.array(schoolRefSchema) });
export type UserSchoolsResponse = z.infer<typeof userSchoolsResponseSchema>;

/** PUT /users/:id/schools: a district user's school access (at least one school). */
export const setUserSchoolsRequestSchema = z.object({
  schoolIds: z.array(dbId, { error: MESSAGES.selectSchools }).min(1, MESSAGES.selectSchools).max(1000, "Too many schools selected"),
});
export type SetUserSchoolsRequest = z.infer<typeof setUserSchoolsRequestSchema>;

export const setUserSchoolsResponseSchema = z.object({ message: z.string(), data: z.array(schoolRefSchema) });
export type SetUserSchoolsResponse = z.infer<typeof setUserSchoolsResponseSchema>;

/** GET /users/:id/login-logs. Dates are whole days (UTC), both ends included. */
export const loginLogsQuerySchema = z
  .object({
    limit: pageLimitSchema(100, LIMITS.loginHistoryPageSize),
    offset: pageOffsetSchema,
    successful: z
      .enum(["true", "false"], { error: "successful must be true or false" })
      .transform((s) => s === "true")
      .optional(),
    start_date: isoDaySchema.optional(),
    end_date: isoDaySchema.optional(),
  })
  .refine((q) => !q.start_date || !q.end_date || q.start_date <= q.end_date, {
    path: ["end_date"],
    message: DATES_OUT_OF_ORDER,
  });
export type LoginLogsQuery = z.infer<typeof loginLogsQuerySchema>;

export const loginLogRowSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  login_method: z.enum(["username", "email", "oidc"]),
  /** The OIDC_PROVIDERS id of a single sign-on; null for a password sign-in. */
  provider: z.string().nullable(),
  ip_address: z.string(),
  user_agent: z.string().nullable(),
  successful: z.boolean(),
  failure_reason: z.string().nullable(),
});
export type LoginLogRow = z.infer<typeof loginLogRowSchema>;

export const loginLogsResponseSchema = z.object({ rows: z.array(loginLogRowSchema), count: z.number().int() });
export type LoginLogsResponse = z.infer<typeof loginLogsResponseSchema>;
