import { isAdminRole, type Role } from "@tally/contract";
import { forbidden } from "../../lib/errors.js";

export const IMPORT_REFUSED = "Only an administrator can import weekly data";

/** The weekly import, its list and undo: admin and super_admin. */
export function assertCanImport(user: { role: Role }): void {
  if (!isAdminRole(user.role)) throw forbidden(IMPORT_REFUSED);
}
