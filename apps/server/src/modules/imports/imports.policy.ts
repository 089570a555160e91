import { ADMIN_ROLES } from "@tally/contract";

/** The weekly import, its list and undo: admin and super_admin (the routes' guard). */
export const IMPORTERS = { roles: ADMIN_ROLES, refused: "Only an administrator can import weekly data" } as const;
