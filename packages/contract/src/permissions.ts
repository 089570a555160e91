import { isAdminRole, type Role } from "./roles.js";

/** Named permission flags carried in the profile; the route guard and the UI read them. */
export const PERMISSIONS = [
  "viewAdminDashboard",
  "viewDistrictDashboard",
  "viewSchoolDashboard",
  "manageUsers",
  "accessSettings",
  "importData",
  "uploadFlags",
  "accessAdminArea",
] as const;
export type Permission = (typeof PERMISSIONS)[number];
export type PermissionsMap = Record<Permission, boolean>;

const GRANTS: Record<Role, readonly Permission[]> = {
  super_admin: [
    "viewAdminDashboard",
    "manageUsers",
    "accessSettings",
    "importData",
    "uploadFlags",
    "accessAdminArea",
  ],
  admin: ["viewAdminDashboard", "manageUsers", "accessSettings", "importData"],
  district_user: ["viewDistrictDashboard"],
  school_user: ["viewSchoolDashboard"],
};

export function permissionsFor(role: Role): PermissionsMap {
  const granted = new Set(GRANTS[role]);
  return Object.fromEntries(PERMISSIONS.map((p) => [p, granted.has(p)])) as PermissionsMap;
}

/**
 * May this role act on an account of `targetRole` (edit it, read its history, send it a reset
 * link)? Only administrators manage accounts, and only a super admin touches a super admin.
 * The server enforces it; the web uses it only to hide controls.
 */
export function canManageAccount(actorRole: Role, targetRole: Role): boolean {
  if (!isAdminRole(actorRole)) return false;
  return targetRole !== "super_admin" || actorRole === "super_admin";
}

/** May this role give an account `role` (create it with it, or change it to it)? Only a super admin hands out super admin. */
export function canGrantRole(actorRole: Role, role: Role): boolean {
  if (!isAdminRole(actorRole)) return false;
  return role !== "super_admin" || actorRole === "super_admin";
}
