import { isAdminRole, type Role } from "@tally/contract";

/** Roles that manage accounts (register users, send reset links). */
export const USER_ADMIN_ROLES = ["admin", "super_admin"] as const satisfies readonly Role[];

/**
 * The schools a user may see: admins see every school; a school user their own school;
 * a district user the schools assigned in user_schools.
 */
export function schoolScope(
  role: Role,
  schoolId: number | null,
  assignedSchoolIds: number[],
): number[] | "all" {
  if (isAdminRole(role)) return "all";
  if (role === "school_user") return schoolId === null ? [] : [schoolId];
  return assignedSchoolIds;
}

/** Only a super admin may create another super admin. */
export function canCreateRole(actorRole: Role, newRole: Role): boolean {
  if (!isAdminRole(actorRole)) return false;
  return newRole !== "super_admin" || actorRole === "super_admin";
}

/** Admins may not act on super admin accounts; super admins may act on anyone. */
export function canManageAccount(actorRole: Role, targetRole: Role): boolean {
  if (!isAdminRole(actorRole)) return false;
  return targetRole !== "super_admin" || actorRole === "super_admin";
}
