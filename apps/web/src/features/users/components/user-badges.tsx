import { Badge } from "@mantine/core";
import { userListRoleLabel } from "@tally/contract";
import { ROLE_COLORS } from "../lib/user-rules";

export function RoleBadge({ role }: { role: string }) {
  return (
    <Badge variant="light" color={ROLE_COLORS[role] ?? "gray"} tt="none">
      {userListRoleLabel(role)}
    </Badge>
  );
}

export function StatusBadge({ active }: { active: boolean }) {
  return (
    <Badge variant="light" color={active ? "green" : "red"} tt="none">
      {active ? "Active" : "Inactive"}
    </Badge>
  );
}
