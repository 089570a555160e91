import { Badge } from "@mantine/core";
import { userListRoleLabel } from "@tally/contract";
import { DARK_SHADES, ROLE_COLORS } from "../lib/user-rules";

export function RoleBadge({ role }: { role: string }) {
  const color = ROLE_COLORS[role] ?? "gray";
  return (
    <Badge variant="light" color={color} c={DARK_SHADES[color]} tt="none" style={{ minWidth: "max-content" }}>
      {userListRoleLabel(role)}
    </Badge>
  );
}

export function StatusBadge({ active }: { active: boolean }) {
  const color = active ? "green" : "red";
  return (
    <Badge variant="light" color={color} c={DARK_SHADES[color]} tt="none" style={{ minWidth: "max-content" }}>
      {active ? "Active" : "Inactive"}
    </Badge>
  );
}
