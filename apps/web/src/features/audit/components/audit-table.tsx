import { Code, Table } from "@mantine/core";
import type { AuditEntryView } from "@tally/contract";

const formatTime = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
};

/** A before/after value as compact JSON; nothing (a creation's before) as a dash. */
function Values({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <>-</>;
  return (
    <Code block fz="xs" style={{ whiteSpace: "pre-wrap", wordBreak: "break-word", maxWidth: "24rem" }}>
      {JSON.stringify(value)}
    </Code>
  );
}

/** One page of audit entries, newest first. */
export function AuditTable({ rows }: { rows: readonly AuditEntryView[] }) {
  return (
    <Table.ScrollContainer minWidth={960}>
      <Table striped verticalSpacing="xs" fz="sm" aria-label="Audit log">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">When</Table.Th>
            <Table.Th scope="col">Who</Table.Th>
            <Table.Th scope="col">Address</Table.Th>
            <Table.Th scope="col">Action</Table.Th>
            <Table.Th scope="col">Entity</Table.Th>
            <Table.Th scope="col">Before</Table.Th>
            <Table.Th scope="col">After</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>
                <time dateTime={r.at}>{formatTime(r.at)}</time>
              </Table.Td>
              <Table.Td>{r.actorName ?? (r.actorId === null ? "System" : `Deleted user #${r.actorId}`)}</Table.Td>
              <Table.Td ff="monospace">{r.clientAddress ?? "-"}</Table.Td>
              <Table.Td ff="monospace">{r.action}</Table.Td>
              <Table.Td>
                {r.entity}
                {r.entityId === null ? "" : ` #${r.entityId}`}
              </Table.Td>
              <Table.Td>
                <Values value={r.before} />
              </Table.Td>
              <Table.Td>
                <Values value={r.after} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
