import type { Role } from "@tally/contract";

/** Only super admins read the audit log: it names every admin's actions and addresses. */
export const AUDIT_READER_ROLES: readonly Role[] = ["super_admin"];
