import { z } from "zod";
import { MAX_DB_ID } from "./common.js";
import { LIMITS } from "./limits.js";
import { mfaChallengeResponseSchema } from "./mfa.js";
import { MESSAGES } from "./messages.js";
import { passwordStrength } from "./password.js";
import { ROLES } from "./roles.js";
import { sessionUserSchema } from "./user.js";

// Loose on purpose: a login form may send an e-mail or a username, and both are matched
// case-insensitively on the server.
export const loginRequestSchema = z.object({
  login: z.string().trim().min(1, "Please enter your username or email").max(320),
  password: z.string().min(1, "Please enter your password").max(1024),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** A finished sign-in: the token pair and the user. */
export const signedInResponseSchema = z.object({
  token: z.string(),
  refreshToken: z.string(),
  user: sessionUserSchema,
});
export type SignedInResponse = z.infer<typeof signedInResponseSchema>;

/** POST /auth/login: the sign-in, or, for an account with a second factor, its challenge (mfa.ts). */
export const loginResponseSchema = z.union([signedInResponseSchema, mfaChallengeResponseSchema]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const refreshRequestSchema = z.object({ refreshToken: z.string().min(1).max(512) });
export type RefreshRequest = z.infer<typeof refreshRequestSchema>;
export const refreshResponseSchema = z.object({ token: z.string(), refreshToken: z.string() });
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;

export const logoutRequestSchema = z.object({ refreshToken: z.string().max(512).optional() });
export type LogoutRequest = z.infer<typeof logoutRequestSchema>;

export const profileResponseSchema = z.object({ user: sessionUserSchema });
export type ProfileResponse = z.infer<typeof profileResponseSchema>;

// A missing token gets the page's own text.
const resetToken = z.string({ error: MESSAGES.resetNoToken }).min(1, MESSAGES.resetNoToken).max(512);
const verifyToken = z.string({ error: MESSAGES.verifyNoToken }).min(1, MESSAGES.verifyNoToken).max(512);

/** POST /auth/verify-reset-token: the token travels in the body, where no request log sees it. */
export const verifyResetTokenRequestSchema = z.object({ token: resetToken });
export type VerifyResetTokenRequest = z.infer<typeof verifyResetTokenRequestSchema>;

/** POST /auth/verify: the token travels in the body, where no request log sees it. */
export const verifyEmailRequestSchema = z.object({ token: verifyToken });
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequestSchema>;

/** GET /auth/verify-reset-token?token=: kept for older clients; the web app posts. */
export const resetTokenQuerySchema = z.object({ token: resetToken });
export type ResetTokenQuery = z.infer<typeof resetTokenQuerySchema>;

/** GET /auth/verify?token=: kept for older clients; the web app posts. */
export const verifyEmailQuerySchema = z.object({ token: verifyToken });
export type VerifyEmailQuery = z.infer<typeof verifyEmailQuerySchema>;

export const verifyResetTokenResponseSchema = z.object({ valid: z.boolean() });
export type VerifyResetTokenResponse = z.infer<typeof verifyResetTokenResponseSchema>;

/** A-Z to a-z and nothing else: Unicode case folding maps other letters onto ASCII ones (U+212A KELVIN SIGN to "k"), so e-mail addresses are compared this way. */
export const asciiLowerCase = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// Every check names its own message: zod 4 would otherwise give the schema's "required" text to all.
export const forgotPasswordRequestSchema = z.object({
  email: z
    .string({ error: MESSAGES.emailRequired })
    .trim()
    .min(1, MESSAGES.emailRequired)
    .max(320, MESSAGES.invalidEmail)
    .regex(emailPattern, MESSAGES.invalidEmail),
});
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;

export const strongPasswordSchema = z
  .string()
  .max(1024)
  .refine((p) => passwordStrength(p) >= LIMITS.passwordStrengthPass, MESSAGES.passwordTooWeak);

export const setPasswordRequestSchema = z.object({
  token: z.string().min(1).max(512),
  password: strongPasswordSchema,
});
export type SetPasswordRequest = z.infer<typeof setPasswordRequestSchema>;

export const verifyEmailResponseSchema = z.object({ message: z.string() });
export type VerifyEmailResponse = z.infer<typeof verifyEmailResponseSchema>;

/** POST /auth/register. Spec section 5 validation, with the spec's messages. */
export const registerRequestSchema = z
  .object({
    username: z
      .string({ error: MESSAGES.usernameTooShort })
      .trim()
      .min(LIMITS.minUsernameLength, MESSAGES.usernameTooShort)
      .max(64),
    email: z.string({ error: MESSAGES.invalidEmail }).trim().max(320).regex(emailPattern, MESSAGES.invalidEmail),
    role: z.enum(ROLES, { error: MESSAGES.selectRole }),
    password: z
      .string({ error: MESSAGES.passwordTooShort })
      .min(LIMITS.minPasswordLength, MESSAGES.passwordTooShort)
      .max(1024),
    school_id: z.number().int().positive().max(MAX_DB_ID).nullish(),
    school_ids: z.array(z.number().int().positive().max(MAX_DB_ID)).max(1000).nullish(),
  })
  .superRefine((v, ctx) => {
    if (v.role === "school_user" && !v.school_id) {
      ctx.addIssue({ code: "custom", path: ["school_id"], message: MESSAGES.selectSchool });
    }
    if (v.role === "district_user" && !(v.school_ids && v.school_ids.length > 0)) {
      ctx.addIssue({ code: "custom", path: ["school_ids"], message: MESSAGES.selectSchools });
    }
  });
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const registerResponseSchema = z.object({ message: z.string(), user: sessionUserSchema });
export type RegisterResponse = z.infer<typeof registerResponseSchema>;
