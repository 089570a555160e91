import { type Role, type SessionUser, permissionsFor } from "@tally/contract";
import { authStore } from "../lib/auth-store";

export function buildUser(overrides: Partial<SessionUser> & { role?: Role } = {}): SessionUser {
  const role = overrides.role ?? "admin";
  return {
    id: 1,
    username: `${role}-user`,
    email: `${role}@example.org`,
    role,
    is_active: true,
    email_verified: true,
    school_id: null,
    school_name: null,
    accessibleSchoolIds: [],
    accessibleSchools: [],
    permissions: permissionsFor(role),
    created_at: "2025-01-01T00:00:00.000Z",
    last_login: null,
    ...overrides,
  };
}

/** Puts a signed-in session in the store (and localStorage) as a real login would. */
export function signIn(user: SessionUser, token = "access-1", refreshToken = "refresh-1"): void {
  authStore.set({ token, refreshToken, user });
}
