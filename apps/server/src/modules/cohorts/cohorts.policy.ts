import { ADMIN_ROLES } from "@tally/contract";

/** Adding and editing cohorts and their admin list: admin and super_admin only (the routes' guard). */
export const COHORT_MANAGERS = { roles: ADMIN_ROLES, refused: "Only an administrator can manage cohorts" } as const;
