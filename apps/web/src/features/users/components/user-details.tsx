import { Anchor, Group, SimpleGrid, Stack, Text } from "@mantine/core";
import { LIMITS, type UserListItem } from "@tally/contract";
import type { ReactNode } from "react";
import { RoleBadge, StatusBadge } from "./user-badges";

/** "12 Mar 2025"; the stored timestamps are UTC, shown in the viewer's time zone. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { dateStyle: "medium" });
}

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text component="dt" size="xs" fw={700} c="dimmed" tt="uppercase">
        {label}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ wordBreak: "break-word" }}>
        {children}
      </Text>
    </Stack>
  );
}

/** A district user's school names: the first five, then "+N more schools...". */
export function districtSchoolsText(names: string[]): string {
  const limit = LIMITS.districtSchoolNamesShown;
  const shown = names.slice(0, limit).join(", ");
  return names.length > limit ? `${shown} +${names.length - limit} more schools...` : shown;
}

function Schools({ user, onManage }: { user: UserListItem; onManage?: () => void }) {
  const manage = onManage ? (
    <Anchor component="button" type="button" size="sm" onClick={onManage} aria-label={`Manage schools of ${user.username}`}>
      Manage
    </Anchor>
  ) : null;
  if (user.role === "district_user") {
    return (
      <Group gap="xs" component="span" wrap="wrap">
        <span>{user.school_names.length > 0 ? districtSchoolsText(user.school_names) : "No schools assigned"}</span>
        {manage}
      </Group>
    );
  }
  if (user.role === "school_user") {
    return (
      <Group gap="xs" component="span" wrap="wrap">
        <span>{user.school_name ?? "-"}</span>
        {manage}
      </Group>
    );
  }
  return <span>All schools</span>;
}

/** The expanded part of a user list row. */
export function UserDetails({ user, onManageSchools }: { user: UserListItem; onManageSchools?: () => void }) {
  return (
    <SimpleGrid component="dl" cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs" m={0}>
      <Field label="Username">{user.username}</Field>
      <Field label="Email">{user.email}</Field>
      <Field label="Role">
        <RoleBadge role={user.role} />
      </Field>
      <Field label="Status">
        <StatusBadge active={user.is_active} />
      </Field>
      <Field label="Created">{formatDate(user.created_at)}</Field>
      <Field label="Last Login">{user.last_login ? formatDateTime(user.last_login) : "Never"}</Field>
      <Field label={user.role === "district_user" ? "Schools" : "School"}>
        <Schools user={user} onManage={onManageSchools} />
      </Field>
    </SimpleGrid>
  );
}
