import { Button } from "@mantine/core";
import { demoOpenTo, isAdminRole } from "@tally/contract";
import { Link, useLocation } from "react-router";
import { demoDashboardPath, useDemoSettings } from "../lib/api/get-demo-settings";
import { useCurrentUser } from "../lib/auth-store";
import hiddenBelow from "../components/hidden-below.module.css";

/**
 * The header's "Demo school" link for school and district users while school access is on
 * (for training), except on that page and for the demo school's own users. Admins open it
 * from Admin Settings: their header already carries Settings and would not fit a phone.
 */
export function DemoSchoolLink() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const demo = useDemoSettings(user !== null && !isAdminRole(user.role));
  if (!user || !demo.data || !demoOpenTo(user.role, demo.data)) return null;
  if (user.school_id === demo.data.schoolId) return null;
  const to = demoDashboardPath(demo.data);
  if (pathname === to) return null;
  return (
    // Narrow padding, like the header's other buttons on a phone, so the header keeps two rows.
    <Button component={Link} to={to} variant="light" px="xs">
      Demo<span className={hiddenBelow.xs}>&nbsp;school</span>
    </Button>
  );
}
