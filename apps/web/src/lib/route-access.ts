import type { Permission, Role, SessionUser } from "@tally/contract";
import { matchPath } from "react-router";

/** What a guarded route requires: one of the roles, or a named permission flag. */
export interface AccessRule {
  roles?: readonly Role[];
  permission?: Permission;
  /** Route parameter that must equal the user's own school (school_user pages). */
  ownSchoolParam?: string;
}

export type AccessDecision = "allow" | "login" | "unauthorized";

export function decideAccess(
  user: SessionUser | null,
  rule: AccessRule,
  params: Record<string, string | undefined> = {},
): AccessDecision {
  if (!user) return "login";
  const byRole = rule.roles ? rule.roles.includes(user.role) : false;
  const byPermission = rule.permission ? user.permissions?.[rule.permission] === true : false;
  const open = !rule.roles && !rule.permission;
  if (!(open || byRole || byPermission)) return "unauthorized";
  if (rule.ownSchoolParam) {
    const value = params[rule.ownSchoolParam];
    if (user.school_id === null || value !== String(user.school_id)) return "unauthorized";
  }
  return "allow";
}

/** Spec section 2 route table; the router and the post-login redirect read the same rules. */
export const ACCESS = {
  signedIn: {},
  dashboard: { roles: ["admin", "super_admin", "district_user"] },
  schoolDashboard: { roles: ["school_user"], ownSchoolParam: "schoolId" },
  users: { roles: ["admin", "super_admin"] },
  adminSettings: { roles: ["admin", "super_admin"] },
  flagUploader: { roles: ["super_admin"] },
  adminArea: { roles: ["super_admin"] },
} as const satisfies Record<string, AccessRule>;

/** Most specific first: /admin/settings must win over /admin/*. */
const GUARDED_PATHS: ReadonlyArray<{ pattern: string; rule: AccessRule }> = [
  { pattern: "/dashboard", rule: ACCESS.dashboard },
  { pattern: "/school/:schoolId/dashboard", rule: ACCESS.schoolDashboard },
  { pattern: "/users", rule: ACCESS.users },
  { pattern: "/admin/settings", rule: ACCESS.adminSettings },
  { pattern: "/admin/flag-uploader", rule: ACCESS.flagUploader },
  { pattern: "/admin/*", rule: ACCESS.adminArea },
];

/** True when `pathname` is a guarded page this user may open. */
export function canVisit(user: SessionUser, pathname: string): boolean {
  for (const { pattern, rule } of GUARDED_PATHS) {
    const match = matchPath(pattern, pathname);
    if (match) return decideAccess(user, rule, match.params) === "allow";
  }
  return false;
}

/** Back to the guarded page the user was sent away from when allowed, else the role's home. */
export function postLoginPath(user: SessionUser, from?: string | null): string {
  if (from) {
    const pathname = from.split(/[?#]/)[0] ?? "";
    if (canVisit(user, pathname)) return from;
  }
  return homePath(user);
}

/** Home page per role (spec section 2, "After login"). */
export function homePath(user: SessionUser): string {
  if (user.role === "school_user" && user.school_id !== null) {
    return `/school/${user.school_id}/dashboard`;
  }
  return "/dashboard";
}
