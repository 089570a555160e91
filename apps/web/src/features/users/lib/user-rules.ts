import { type Role, type SessionUser, type UserListItem } from "@tally/contract";

/**
 * Mirrors the server's users policy only to hide controls: admins cannot act on super admin
 * accounts; super admins can act on every account.
 */
export function canManage(viewer: Pick<SessionUser, "role">, target: Pick<UserListItem, "role">): boolean {
  return target.role !== "super_admin" || viewer.role === "super_admin";
}

/** Deactivate / Reactivate: never on one's own row, and on super admin rows only for super admins. */
export function canChangeActive(viewer: Pick<SessionUser, "id" | "role">, target: Pick<UserListItem, "id" | "role">): boolean {
  return viewer.id !== target.id && canManage(viewer, target);
}

/** Roles the viewer may hand out: the server refuses super_admin from anyone else. */
export function assignableRoles(viewer: Pick<SessionUser, "role">): Array<{ value: Role; label: string }> {
  const roles: Array<{ value: Role; label: string }> = [
    { value: "school_user", label: "School User" },
    { value: "district_user", label: "District User" },
    { value: "admin", label: "Admin" },
  ];
  if (viewer.role === "super_admin") roles.push({ value: "super_admin", label: "Super Admin" });
  return roles;
}

/** Case-insensitive substring match on username, e-mail and the stored role (spec section 2). */
export function matchesSearch(user: UserListItem, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [user.username, user.email, user.role].some((field) => field.toLowerCase().includes(needle));
}

export const ROLE_COLORS: Record<string, string> = {
  super_admin: "grape",
  admin: "blue",
  district_user: "teal",
  school_user: "gray",
};

/**
 * Darker greens for WCAG AA (4.5:1): Mantine's green 9 reaches 3.8:1 as text on its light
 * background and 4.4:1 under white text, teal 9 4.3:1 as light text; these give 5.6:1 or more.
 */
export const DARK_SHADES: Record<string, string | undefined> = {
  green: "#1f6d31",
  teal: "#056148",
};
