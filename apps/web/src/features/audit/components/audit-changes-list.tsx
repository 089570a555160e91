import { List, Text } from "@mantine/core";
import { type AuditNames, auditChanges } from "../lib/audit-changes";

/** "Role: School User → Admin", one line a field; a creation lists the values it set. */
export function AuditChangesList({ before, after, names }: { before: unknown; after: unknown; names: AuditNames }) {
  const lines = auditChanges(before, after, names);
  if (lines.length === 0) return <Text size="sm">-</Text>;
  return (
    <List size="sm" spacing={2} listStyleType="none" ml={0} pl={0} maw="28rem" style={{ wordBreak: "break-word" }}>
      {lines.map((line) => (
        <List.Item key={line.field}>
          <Text span fw={600} size="sm">
            {line.field}:
          </Text>{" "}
          {line.before !== undefined && line.after !== undefined ? (
            <>
              <Text span size="sm" td="line-through" c="dimmed">
                {line.before}
              </Text>
              {" → "}
              {line.after}
            </>
          ) : line.after !== undefined ? (
            line.after
          ) : (
            <>
              <Text span size="sm" td="line-through" c="dimmed">
                {line.before}
              </Text>{" "}
              (removed)
            </>
          )}
        </List.Item>
      ))}
    </List>
  );
}
