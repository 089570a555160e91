import { Badge, Button, Group, Text, TextInput } from "@mantine/core";
import { headerRoleLabel } from "@tally/contract";
import { type ReactNode } from "react";
import { Link } from "react-router";
import { TWO_STEP_PATH } from "../lib/api-client";
import { useCurrentUser } from "../lib/auth-store";
import { useLogout } from "../lib/use-logout";
import classes from "./general-header.module.css";
import hiddenBelow from "./hidden-below.module.css";
import { Logo } from "./logo";

export const SEARCH_PLACEHOLDER = "Search by student name, cohort, team, school";

interface Props {
  search?: string;
  onSearchChange?: (value: string) => void;
  /** Extra actions such as the dashboard's Export button. */
  actions?: ReactNode;
}

/**
 * Header of the dashboard pages (spec section 2, "Header (general dashboard)"). On narrow
 * screens the search takes its own row and the e-mail is hidden visually (not from screen
 * readers), so Settings and Logout stay on the first row.
 */
export function GeneralHeader({ search, onSearchChange, actions }: Props) {
  const user = useCurrentUser();
  const logout = useLogout();
  if (!user) return null;
  const isAdmin = user.role === "admin" || user.role === "super_admin";
  return (
    <header className={classes.header}>
      <div className={classes.logo}>
        <Logo />
      </div>
      <TextInput
        className={classes.search}
        aria-label="Search"
        type="search"
        placeholder={SEARCH_PLACEHOLDER}
        value={search}
        onChange={(event) => onSearchChange?.(event.currentTarget.value)}
      />
      <div className={classes.actions}>
        {actions}
        {/* The same e-mail and role label as CurrentUserBadge, with the e-mail able to shrink. */}
        <Group gap="xs" wrap="nowrap" miw={0}>
          {/* The e-mail leads to the person's own account page (two-step sign-in): no wider header. */}
          <Text
            component={Link}
            to={TWO_STEP_PATH}
            size="sm"
            truncate
            c="inherit"
            className={`${classes.email} ${hiddenBelow.xs}`}
            data-testid="header-user-email"
            title={`${user.email}: two-step sign-in`}
          >
            {user.email}
          </Text>
          <Badge variant="light" color="blue" data-testid="header-role-label" className={classes.badge}>
            {headerRoleLabel(user.role)}
          </Badge>
        </Group>
        <Button component={Link} to="/alerts" variant="default" className={`${classes.button} ${classes.attention}`}>
          <span aria-hidden="true">⚑</span>
          <span className={hiddenBelow.md}>&nbsp;Needs attention</span>
        </Button>
        {isAdmin ? (
          <Button component={Link} to="/admin/settings" variant="default" className={classes.button}>
            Settings
          </Button>
        ) : null}
        <Button variant="outline" onClick={() => void logout()} className={classes.button}>
          Logout
        </Button>
      </div>
    </header>
  );
}
