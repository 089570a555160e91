import { describe, expect, it } from "vitest";
import { MESSAGES } from "./messages.js";
import { adminResetPasswordFormSchema, editUserFormSchema, loginLogsQuerySchema } from "./users.js";

const firstError = (r: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  r.success ? undefined : r.error?.issues[0]?.message;

describe("user administration forms", () => {
  it("the Edit User form needs a school for school users and schools for district users", () => {
    const base = { username: "alice", email: "alice@example.test" };
    expect(firstError(editUserFormSchema.safeParse({ ...base, role: "school_user" }))).toBe(MESSAGES.selectSchool);
    expect(firstError(editUserFormSchema.safeParse({ ...base, role: "district_user", school_ids: [] }))).toBe(
      MESSAGES.selectSchools,
    );
    expect(firstError(editUserFormSchema.safeParse({ ...base, role: "" }))).toBe(MESSAGES.selectRole);
    expect(firstError(editUserFormSchema.safeParse({ ...base, username: "al", role: "admin" }))).toBe(
      MESSAGES.usernameTooShort,
    );
    expect(editUserFormSchema.safeParse({ ...base, role: "district_user", school_ids: [1] }).success).toBe(true);
  });

  it("the Reset Password form wants 8 characters and a matching confirmation", () => {
    expect(firstError(adminResetPasswordFormSchema.safeParse({ password: "short", confirmPassword: "short" }))).toBe(
      MESSAGES.passwordTooShort,
    );
    expect(firstError(adminResetPasswordFormSchema.safeParse({ password: "long-enough", confirmPassword: "other" }))).toBe(
      MESSAGES.passwordsDoNotMatch,
    );
  });

  it("login history queries default to the first page of ten", () => {
    expect(loginLogsQuerySchema.parse({})).toEqual({ limit: 10, offset: 0 });
    expect(loginLogsQuerySchema.parse({ successful: "false", limit: "25" })).toEqual({ limit: 25, offset: 0, successful: false });
  });
});
