import { isAdminRole, type Role } from "@tally/contract";
import { forbidden } from "../../lib/errors.js";

export const MANAGE_SCHOOLS_REFUSED = "Only an administrator can manage schools";

/** Adding, renaming and the admin list of schools: admin and super_admin only. */
export function assertCanManageSchools(user: { role: Role }): void {
  if (!isAdminRole(user.role)) throw forbidden(MANAGE_SCHOOLS_REFUSED);
}
