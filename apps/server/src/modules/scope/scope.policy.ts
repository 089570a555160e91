import { isAdminRole, type Role } from "@tally/contract";

/**
 * The schools a user may see: admins see every school; a school user their own school;
 * a district user the schools assigned in user_schools.
 */
export function schoolScope(role: Role, schoolId: number | null, assignedSchoolIds: number[]): number[] | "all" {
  if (isAdminRole(role)) return "all";
  if (role === "school_user") return schoolId === null ? [] : [schoolId];
  return assignedSchoolIds;
}

/** Whether a demo school account is refused sign-in: its school is the demo and the demo is off. */
export function demoClosesAccount(role: Role, schoolId: number | null, demo: { schoolId: number; isDemoVisible: boolean }): boolean {
  return !demo.isDemoVisible && !isAdminRole(role) && schoolId !== null && schoolId === demo.schoolId;
}
