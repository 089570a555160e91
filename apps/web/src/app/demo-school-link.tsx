import { Button } from "@mantine/core";
import { Link, useLocation } from "react-router";
import { canOpenDemo, demoDashboardPath, useDemoSettings } from "../lib/api/get-demo-settings";
import { useCurrentUser } from "../lib/auth-store";

/**
 * The header's "Demo school" link, shown to whoever the demo settings let open its dashboard
 * (school and district users for training, admins to show the product), except on it and
 * to the demo school's own users.
 */
export function DemoSchoolLink() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const demo = useDemoSettings(user !== null);
  if (!user || !demo.data || !canOpenDemo(user.role, demo.data)) return null;
  if (user.school_id === demo.data.schoolId) return null;
  const to = demoDashboardPath(demo.data);
  if (pathname === to) return null;
  return (
    <Button component={Link} to={to} variant="light">
      Demo school
    </Button>
  );
}
