/** The weekly import, opened from anywhere: the settings page opens its import dialog for ?import=1. */
export const IMPORT_WEEK_PATH = "/admin/settings?import=1";
/** The schools and cohorts lists, the first block of the settings page. */
export const SCHOOLS_AND_COHORTS_PATH = "/admin/settings#schools-and-cohorts";

/** The admin navigation (issue 29), in its order; the last two only for super admins. */
export const ADMIN_LINKS = [
  { to: "/dashboard", label: "Dashboard", superAdminOnly: false },
  { to: IMPORT_WEEK_PATH, label: "Import week", superAdminOnly: false },
  { to: "/users", label: "Users", superAdminOnly: false },
  { to: SCHOOLS_AND_COHORTS_PATH, label: "Schools & cohorts", superAdminOnly: false },
  { to: "/admin/settings", label: "Settings", superAdminOnly: false },
  { to: "/admin/audit", label: "Audit log", superAdminOnly: true },
  { to: "/admin/flag-uploader", label: "Flag Uploader", superAdminOnly: true },
] as const;
