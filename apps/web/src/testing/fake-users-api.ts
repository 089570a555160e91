import type { LoginLogRow, SchoolItem, UserListItem } from "@tally/contract";
import { jsonResponse, mockFetch } from "./mock-fetch";

let nextId = 100;

export function buildListUser(overrides: Partial<UserListItem> = {}): UserListItem {
  const id = overrides.id ?? nextId++;
  const username = overrides.username ?? `user${id}`;
  return {
    id,
    username,
    email: `${username}@example.org`,
    role: "school_user",
    school_id: null,
    school_name: null,
    school_ids: [],
    school_names: [],
    school_count: 0,
    is_active: true,
    created_at: "2025-01-02T10:00:00.000Z",
    last_login: null,
    email_verified: true,
    ...overrides,
  };
}

export function buildSchools(count: number): SchoolItem[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: `School ${String(i + 1).padStart(2, "0")}`,
    district: "D1",
  }));
}

export interface UsersWorld {
  users: UserListItem[];
  schools?: SchoolItem[];
  logs?: LoginLogRow[];
  /** "METHOD /path" (path without /api and query) answering this reply instead. */
  overrides?: Record<string, () => Response>;
}

/** A fake users API over `world`, keeping the changes it is asked to make. */
export function mockUsersApi(world: UsersWorld) {
  return mockFetch((url, init) => {
    const parsed = new URL(url, "http://test");
    const path = parsed.pathname.replace(/^\/api/, "");
    const method = init.method ?? "GET";
    const override = world.overrides?.[`${method} ${path}`];
    if (override) return override();
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    const idMatch = /^\/users\/(\d+)/.exec(path);
    const user = idMatch ? world.users.find((u) => u.id === Number(idMatch[1])) : undefined;
    if (method === "GET" && path === "/users") return jsonResponse(200, { data: world.users });
    if (method === "GET" && path === "/schools") return jsonResponse(200, { data: world.schools ?? [] });
    if (method === "GET" && path === "/cohorts") return jsonResponse(200, { data: [] });
    if (user && method === "POST" && path.endsWith("/deactivate")) {
      user.is_active = false;
      return jsonResponse(200, { message: "ok", user });
    }
    if (user && method === "POST" && path.endsWith("/reactivate")) {
      user.is_active = true;
      return jsonResponse(200, { message: "ok", user });
    }
    if (user && method === "GET" && path.endsWith("/schools")) {
      return jsonResponse(200, { data: user.school_ids.map((id, i) => ({ id, name: user.school_names[i] ?? "" })) });
    }
    if (user && method === "PUT" && path.endsWith("/schools")) {
      const ids = body.schoolIds as number[];
      const schools = (world.schools ?? []).filter((s) => ids.includes(s.id));
      user.school_ids = schools.map((s) => s.id);
      user.school_names = schools.map((s) => s.name);
      return jsonResponse(200, { message: "School access updated successfully!", data: schools });
    }
    if (user && method === "GET" && path.endsWith("/login-logs")) {
      const q = parsed.searchParams;
      const successful = q.get("successful");
      const rows = (world.logs ?? []).filter((r) => successful === null || String(r.successful) === successful);
      const offset = Number(q.get("offset") ?? 0);
      const limit = Number(q.get("limit") ?? 10);
      return jsonResponse(200, { rows: rows.slice(offset, offset + limit), count: rows.length });
    }
    if (method === "POST" && path.startsWith("/auth/request-reset/")) {
      return jsonResponse(200, { message: "Password reset link has been sent" });
    }
    if (method === "POST" && path === "/auth/register") {
      return jsonResponse(201, { message: "User created successfully", user: { ...body, id: 999 } });
    }
    return jsonResponse(404, { error: `No fake for ${method} ${path}`, code: "NOT_FOUND" });
  });
}
