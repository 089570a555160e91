/**
 * The demo accounts the server seeds with DEMO_SEED=true (apps/server/src/db/seed/demo-seed.ts),
 * with where each lands after sign-in and the title it sees there. They all share one password.
 *
 * Each journey file that changes an account owns it alone: school2 (password reset) and admin2
 * (reset link for the accessibility scan) are used nowhere else, so file order never matters.
 */
export interface DemoAccount {
  username: string;
  email: string;
  home: string;
  title: string;
}

const account = (username: string, home: string, title: string): DemoAccount => ({
  username,
  email: `${username}@tally.demo`,
  home,
  title,
});

export const SUPER_ADMIN = account("superadmin", "/dashboard", "Admin Dashboard");
export const ADMIN = account("admin", "/dashboard", "Admin Dashboard");
export const ADMIN_2 = account("admin2", "/dashboard", "Admin Dashboard");
export const DISTRICT = account("district", "/dashboard", "District Dashboard");
/** School 1 of the demo data; school 2 (Cedar Ridge) is someone else's. */
export const SCHOOL = account("school", "/school/1/dashboard", "Northgate High School Dashboard");
export const SCHOOL_2 = account("school2", "/school/5/dashboard", "Riverbend High School Dashboard");
/** A deactivated school_user of school 2. */
export const INACTIVE = account("inactive", "/school/2/dashboard", "Cedar Ridge High School Dashboard");

export const OTHER_SCHOOL_DASHBOARD = "/school/2/dashboard";

/** The four roles, one account each. */
export const ROLE_ACCOUNTS = [
  { role: "super_admin", ...SUPER_ADMIN },
  { role: "admin", ...ADMIN },
  { role: "district_user", ...DISTRICT },
  { role: "school_user", ...SCHOOL },
] as const;
