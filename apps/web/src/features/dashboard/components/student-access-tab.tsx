import { Alert, Button, Group, Select, Stack, Table, Text } from "@mantine/core";
import { ACCESS_ACTIONS, ACCESS_LOG_CSV_COLUMNS, type AccessAction, type AccessLogEntry, userListRoleLabel } from "@tally/contract";
import { useState } from "react";
import { DataTable } from "../../../components/data-table";
import { DateRangeInputs, datesOutOfOrder } from "../../../components/date-range-inputs";
import { EmptyState } from "../../../components/empty-state";
import { PageButtons } from "../../../components/page-buttons";
import { SectionLoader } from "../../../components/section-loader";
import { downloadCsv, toCsv } from "../../../lib/csv";
import { useDownloadStudentExport } from "../api/download-student-export";
import { type AccessLogFilter, getWholeStudentAccessLog, useStudentAccessLog } from "../api/get-student-access-log";
import { reportErrorText } from "./report-error-text";

const EXPORT_ERROR = "The student's data could not be exported. Try again.";

const PAGE_SIZE = 25;

/** The actions in words, for the table and the filter. */
export const ACCESS_ACTION_WORDS: Record<AccessAction, string> = {
  view: "Viewed",
  pdf: "PDF report",
  csv: "CSV export",
  email: "E-mailed report",
  export: "Student export",
  data: "Read as data",
};

function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
}

/** The file's rows: every cell through the contract's formula-safe rule (toCsv), times in UTC. */
export function accessLogCsv(rows: readonly AccessLogEntry[]): string {
  return toCsv([
    ACCESS_LOG_CSV_COLUMNS,
    ...rows.map((r) => [r.at, r.username, userListRoleLabel(r.role), r.address ?? "", ACCESS_ACTION_WORDS[r.action], r.recipient ?? ""]),
  ]);
}

/**
 * The student detail's Access tab (admins): who viewed or exported this student's records,
 * newest first, filtered by action and days, and the same as a CSV file; and the student's own
 * export (issue 32: everything Tally holds about them, as a ZIP), which the record then lists.
 */
export function StudentAccessTab({ studentId }: { studentId: number }) {
  const [filter, setFilter] = useState<AccessLogFilter>({ action: "", from: "", to: "" });
  const [page, setPage] = useState(1);
  const [csvError, setCsvError] = useState<string | null>(null);
  const badRange = datesOutOfOrder(filter.from, filter.to);
  // A range out of order is not sent: the To field says why.
  const sent = badRange ? { ...filter, from: "", to: "" } : filter;
  const log = useStudentAccessLog(studentId, sent, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const studentExport = useDownloadStudentExport(studentId);
  const change = (next: Partial<AccessLogFilter>) => {
    setFilter({ ...filter, ...next });
    setPage(1);
  };
  const download = async () => {
    setCsvError(null);
    try {
      downloadCsv(`student-${studentId}-access.csv`, accessLogCsv(await getWholeStudentAccessLog(studentId, sent)));
    } catch {
      setCsvError("The access record could not be downloaded. Try again.");
    }
  };
  return (
    <Stack gap="sm">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label="Action"
          placeholder="Any action"
          clearable
          value={filter.action || null}
          data={ACCESS_ACTIONS.map((a) => ({ value: a, label: ACCESS_ACTION_WORDS[a] }))}
          onChange={(v) => change({ action: (v ?? "") as AccessAction | "" })}
        />
        <DateRangeInputs from={filter.from} to={filter.to} onChange={(range) => change(range)} />
        <Button variant="default" onClick={() => void download()} disabled={!log.data || log.data.total === 0}>
          Download CSV
        </Button>
        <Button onClick={() => studentExport.mutate()} loading={studentExport.isPending}>
          Export student's data
        </Button>
      </Group>
      {csvError ? <Alert color="red">{csvError}</Alert> : null}
      {studentExport.isError ? (
        <Alert color="red" withCloseButton closeButtonLabel="Dismiss message" onClose={() => studentExport.reset()}>
          {reportErrorText(studentExport.error, EXPORT_ERROR)}
        </Alert>
      ) : null}
      {log.isPending ? (
        <SectionLoader label="Loading access record" />
      ) : log.isError || !log.data ? (
        <EmptyState message="The access record could not be loaded" />
      ) : log.data.total === 0 ? (
        <EmptyState message="Nobody has viewed or exported this student's records for these filters" />
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {log.data.total} {log.data.total === 1 ? "entry" : "entries"}, newest first
          </Text>
          <DataTable columns={["When", "User", "Role", "Address", "Action", "Recipient"]} minWidth={640} scrollLabel="Access record" striped>
            {log.data.data.map((r, i) => (
              <Table.Tr key={`${r.at}-${r.userId}-${i}`}>
                <Table.Td>{when(r.at)}</Table.Td>
                <Table.Td>{r.username}</Table.Td>
                <Table.Td>{userListRoleLabel(r.role)}</Table.Td>
                <Table.Td>{r.address ?? "—"}</Table.Td>
                <Table.Td>{ACCESS_ACTION_WORDS[r.action]}</Table.Td>
                <Table.Td>{r.recipient ?? ""}</Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
          <PageButtons page={page} pageCount={Math.ceil(log.data.total / PAGE_SIZE)} onChange={setPage} label="access entries" />
        </>
      )}
    </Stack>
  );
}
