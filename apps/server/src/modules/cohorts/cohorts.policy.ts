import { isAdminRole, type Role } from "@tally/contract";
import { forbidden } from "../../lib/errors.js";

export const MANAGE_COHORTS_REFUSED = "Only an administrator can manage cohorts";

/** Adding and editing cohorts and their admin list: admin and super_admin only. */
export function assertCanManageCohorts(user: { role: Role }): void {
  if (!isAdminRole(user.role)) throw forbidden(MANAGE_COHORTS_REFUSED);
}
