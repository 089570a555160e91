import { Collapse, Paper, Title, UnstyledButton } from "@mantine/core";
import { useCurrentUser } from "../../../lib/auth-store";
import { useId, useState } from "react";
import { UserList } from "./user-list";

/** Section 1 of Admin Settings: the user list, folded away until opened. */
export function UserManagementSection({ defaultOpen = false }: { defaultOpen?: boolean }) {
  const viewer = useCurrentUser();
  const [open, setOpen] = useState(defaultOpen);
  const bodyId = useId();
  if (!viewer) return null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={`${bodyId}-title`}>
      <Title order={2} size="h3" id={`${bodyId}-title`}>
        <UnstyledButton
          onClick={() => setOpen((v) => !v)}
          aria-expanded={open}
          aria-controls={bodyId}
          fz="inherit"
          fw="inherit"
          w="100%"
        >
          <span aria-hidden="true">{open ? "▾ " : "▸ "}</span>
          User Management
        </UnstyledButton>
      </Title>
      <Collapse expanded={open} id={bodyId} keepMounted={false}>
        <div style={{ paddingTop: "var(--mantine-spacing-sm)" }}>
          <UserList viewer={viewer} />
        </div>
      </Collapse>
    </Paper>
  );
}
