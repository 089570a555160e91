import { z } from "zod";

/** Roles a user account can hold. district_admin is a display label only (spec section 1). */
export const ROLES = ["super_admin", "admin", "district_user", "school_user"] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

export const ADMIN_ROLES: readonly Role[] = ["admin", "super_admin"];

export function isAdminRole(role: string): boolean {
  return role === "admin" || role === "super_admin";
}

/** Label in the dashboard and admin headers: Super Admin, Admin, otherwise School User. */
export function headerRoleLabel(role: string): string {
  if (role === "super_admin") return "Super Admin";
  if (role === "admin") return "Admin";
  return "School User";
}

/** Label in the user lists. */
export function userListRoleLabel(role: string): string {
  switch (role) {
    case "super_admin":
      return "Super Admin";
    case "admin":
      return "Admin";
    case "school_user":
      return "School User";
    case "district_user":
    case "district_admin":
      return "District Admin";
    default:
      return role;
  }
}
