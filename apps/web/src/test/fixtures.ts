import { vi } from "vitest";
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

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

/** Replaces fetch; the handler sees the URL path + query and the request init. */
export function mockFetch(handler: Handler) {
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const raw = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const url = raw.replace(/^https?:\/\/[^/]+/, "");
    return handler(url, init);
  });
  vi.stubGlobal("fetch", fn);
  return fn;
}

export function headerOf(init: RequestInit | undefined, name: string): string | undefined {
  const headers = (init?.headers ?? {}) as Record<string, string>;
  return headers[name];
}
