import { Group, NavLink, Stack } from "@mantine/core";
import type { Role } from "@tally/contract";
import { Link, useLocation } from "react-router";
import { useCurrentUser } from "../lib/auth-store";
import { ADMIN_LINKS, IMPORT_WEEK_PATH, SCHOOLS_AND_COHORTS_PATH } from "./admin-links";

/** Which link the current address is: the hash and ?import tell three links on one page apart. */
function activeLink(pathname: string, search: string, hash: string): string | undefined {
  if (pathname === "/admin/settings") {
    if (new URLSearchParams(search).get("import") === "1") return IMPORT_WEEK_PATH;
    if (hash === "#schools-and-cohorts") return SCHOOLS_AND_COHORTS_PATH;
  }
  return ADMIN_LINKS.find((link) => link.to === pathname)?.to;
}

/** The links a role sees: the super admin ones only for super admins. */
export function adminLinksFor(role: Role | undefined) {
  return ADMIN_LINKS.filter((link) => !link.superAdminOnly || role === "super_admin");
}

// The active link in dark blue on pale blue, hovered or not: Mantine's light variant under the
// pointer gives 4.0:1, below WCAG AA's 4.5:1.
const ACTIVE_STYLE = { backgroundColor: "var(--mantine-color-blue-0)", color: "var(--mantine-color-blue-9)", fontWeight: 600 };

interface Props {
  /** "vertical": the admin screens' sidebar; "horizontal": the strip under the dashboard's header. */
  orientation?: "vertical" | "horizontal";
}

/** The one admin navigation of every admin screen (issue 29): the same links, in the same order. */
export function AdminNav({ orientation = "vertical" }: Props) {
  const user = useCurrentUser();
  const { pathname, search, hash } = useLocation();
  const active = activeLink(pathname, search, hash);
  const links = adminLinksFor(user?.role).map((link) => (
    <NavLink
      key={link.to}
      component={Link}
      to={link.to}
      label={link.label}
      active={active === link.to}
      aria-current={active === link.to ? "page" : undefined}
      style={active === link.to ? ACTIVE_STYLE : undefined}
      w={orientation === "horizontal" ? "auto" : undefined}
      py={orientation === "horizontal" ? 6 : undefined}
      styles={orientation === "horizontal" ? { label: { whiteSpace: "nowrap" } } : undefined}
    />
  ));
  if (orientation === "horizontal") {
    // One row; on a phone it scrolls sideways inside itself rather than pushing the page wider.
    return (
      <Group
        component="nav"
        aria-label="Admin"
        gap={4}
        px="md"
        py={4}
        wrap="nowrap"
        style={{ overflowX: "auto", borderBottom: "1px solid var(--mantine-color-gray-3)" }}
      >
        {links}
      </Group>
    );
  }
  return (
    <Stack component="nav" aria-label="Admin" gap={4} p="sm" w={{ base: "100%", sm: 220 }}>
      {links}
    </Stack>
  );
}
