import { Code, Table } from "@mantine/core";
import type { AuditEntryView } from "@tally/contract";
import { DataTable } from "../../../components/data-table";

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

const COLUMNS = ["When", "Who", "Address", "Action", "Entity", "Before", "After"];

/** One page of audit entries, newest first. */
export function AuditTable({ rows }: { rows: readonly AuditEntryView[] }) {
  return (
    <DataTable columns={COLUMNS} minWidth={960} striped verticalSpacing="xs" fz="sm" aria-label="Audit log">
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
    </DataTable>
  );
}
