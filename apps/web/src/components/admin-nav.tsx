import { NavLink, Stack } from "@mantine/core";
import { Link, useLocation } from "react-router";
import { useCurrentUser } from "../lib/auth-store";

const LINKS = [
  { to: "/dashboard", label: "Dashboard" },
  { to: "/admin/settings", label: "Settings" },
  { to: "/users", label: "User Management" },
] as const;

const FLAG_UPLOADER = { to: "/admin/flag-uploader", label: "Flag Uploader" } as const;

/** Admin navigation; Flag Uploader only for super_admin. */
export function AdminNav() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const links = user?.role === "super_admin" ? [...LINKS, FLAG_UPLOADER] : LINKS;
  return (
    <Stack component="nav" aria-label="Admin" gap={4} p="sm" w={{ base: "100%", sm: 220 }}>
      {links.map((link) => (
        <NavLink
          key={link.to}
          component={Link}
          to={link.to}
          label={link.label}
          active={pathname === link.to}
          aria-current={pathname === link.to ? "page" : undefined}
        />
      ))}
    </Stack>
  );
}
