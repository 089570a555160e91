import { canGrantRole, canManageAccount, type Role, type SessionUser, type UserListItem } from "@tally/contract";

/** The contract's account rule (the server enforces it), used here only to hide controls. */
export function canManage(viewer: Pick<SessionUser, "role">, target: Pick<UserListItem, "role">): boolean {
  return canManageAccount(viewer.role, target.role);
}

/** Deactivate / Reactivate: never on one's own row, and on super admin rows only for super admins. */
export function canChangeActive(viewer: Pick<SessionUser, "id" | "role">, target: Pick<UserListItem, "id" | "role">): boolean {
  return viewer.id !== target.id && canManage(viewer, target);
}

const ROLE_CHOICES: Array<{ value: Role; label: string }> = [
  { value: "school_user", label: "School User" },
  { value: "district_user", label: "District User" },
  { value: "admin", label: "Admin" },
  { value: "super_admin", label: "Super Admin" },
];

/** Roles the viewer may hand out (the contract's canGrantRole; the server refuses the rest). */
export function assignableRoles(viewer: Pick<SessionUser, "role">): Array<{ value: Role; label: string }> {
  return ROLE_CHOICES.filter((choice) => canGrantRole(viewer.role, choice.value));
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
