import { Badge } from "@mantine/core";
import { userListRoleLabel } from "@tally/contract";
import { ROLE_COLORS } from "../lib/user-rules";

export function RoleBadge({ role }: { role: string }) {
  return (
    <Badge variant="light" color={ROLE_COLORS[role] ?? "gray"} tt="none" style={{ minWidth: "max-content" }}>
      {userListRoleLabel(role)}
    </Badge>
  );
}

export function StatusBadge({ active }: { active: boolean }) {
  return (
    <Badge variant="light" color={active ? "green" : "red"} tt="none" style={{ minWidth: "max-content" }}>
      {active ? "Active" : "Inactive"}
    </Badge>
  );
}
