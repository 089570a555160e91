import type { Role } from "@tally/contract";

/** Admins read one student's record (within their scope); school and district users do not. */
export const STUDENT_ACCESS_READER_ROLES: readonly Role[] = ["admin", "super_admin"];
/** The record across every student names every user's reads: super admins only, as the audit log. */
export const ACCESS_LOG_READER_ROLES: readonly Role[] = ["super_admin"];
