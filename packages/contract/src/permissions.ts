import type { Role } from "./roles.js";

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
