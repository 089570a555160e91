import { Table, Text } from "@mantine/core";
import { type AuditEntryView, auditActionText } from "@tally/contract";
import { DataTable } from "../../../components/data-table";
import { type AuditNames, whatText } from "../lib/audit-changes";
import { AuditChangesList } from "./audit-changes-list";

const formatTime = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
};

const COLUMNS = ["When", "Who", "Address", "Action", "What", "Changes"];

/** One page of audit entries, newest first, in words. */
export function AuditTable({ rows, names }: { rows: readonly AuditEntryView[]; names: AuditNames }) {
  return (
    <DataTable columns={COLUMNS} minWidth={960} striped verticalSpacing="xs" fz="sm" aria-label="Audit log">
      {rows.map((r) => (
        <Table.Tr key={r.id}>
          <Table.Td>
            <time dateTime={r.at}>{formatTime(r.at)}</time>
          </Table.Td>
          <Table.Td>{r.actorName ?? (r.actorId === null ? "System" : "An account deleted since")}</Table.Td>
          <Table.Td ff="monospace">{r.clientAddress ?? "-"}</Table.Td>
          <Table.Td>
            <Text size="sm" title={r.action}>
              {auditActionText(r.action, r.entity)}
            </Text>
          </Table.Td>
          <Table.Td>{whatText(r)}</Table.Td>
          <Table.Td>
            <AuditChangesList before={r.before} after={r.after} names={names} />
          </Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}
