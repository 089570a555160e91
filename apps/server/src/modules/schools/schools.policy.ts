import { ADMIN_ROLES } from "@tally/contract";

/** Adding, renaming and the admin list of schools: admin and super_admin only (the routes' guard). */
export const SCHOOL_MANAGERS = { roles: ADMIN_ROLES, refused: "Only an administrator can manage schools" } as const;
