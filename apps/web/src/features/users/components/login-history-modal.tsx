import { Alert, Badge, Button, Group, NativeSelect, Stack, Table, Text, TextInput } from "@mantine/core";
import { LIMITS, type UserListItem } from "@tally/contract";
import { useState } from "react";
import { EmptyState } from "../../../components/empty-state";
import { ModalShell } from "../../../components/modal-shell";
import { PageButtons } from "../../../components/page-buttons";
import { SectionLoader } from "../../../components/section-loader";
import { downloadCsv } from "../../../lib/csv";
import { pageBounds } from "../../../lib/paging";
import { getAllLoginLogs, type LoginLogFilters, type LoginStatusFilter, useLoginLogs } from "../api/get-login-logs";
import { browserLabel } from "../lib/browser-label";
import { loginHistoryCsv, loginHistoryFileName } from "../lib/login-history-csv";
import { DARK_SHADES } from "../lib/user-rules";
import { formatDateTime } from "./user-details";

const LOAD_FAILED = "Failed to load login history. Please try again.";

/** Sign-in attempts of one account: 10 per page, filters, CSV export of every filtered row. */
export function LoginHistoryModal({ user, onClose }: { user: UserListItem; onClose: () => void }) {
  const [filters, setFilters] = useState<LoginLogFilters>({ status: "all", startDate: "", endDate: "" });
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState(false);
  const invalidRange = filters.startDate !== "" && filters.endDate !== "" && filters.startDate > filters.endDate;
  const logs = useLoginLogs(user.id, filters, page, !invalidRange);

  const setFilter = (patch: Partial<LoginLogFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };

  const exportCsv = async () => {
    setExporting(true);
    setExportError(false);
    try {
      const rows = await getAllLoginLogs(user.id, filters);
      downloadCsv(loginHistoryFileName(user.username), loginHistoryCsv(rows));
    } catch {
      setExportError(true);
    } finally {
      setExporting(false);
    }
  };

  const count = logs.data?.count ?? 0;
  const rows = logs.data?.rows ?? [];
  const { pageCount, from, to } = pageBounds(page, LIMITS.loginHistoryPageSize, count);

  return (
    <ModalShell title={`Login History: ${user.username}`} onClose={onClose} size="80rem">
      <Stack gap="sm">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <NativeSelect
            label="Status"
            data={[
              { value: "all", label: "All attempts" },
              { value: "successful", label: "Successful" },
              { value: "failed", label: "Failed" },
            ]}
            value={filters.status}
            onChange={(e) => setFilter({ status: e.currentTarget.value as LoginStatusFilter })}
          />
          <TextInput
            label="From"
            type="date"
            value={filters.startDate}
            onChange={(e) => setFilter({ startDate: e.currentTarget.value })}
          />
          <TextInput
            label="To"
            type="date"
            value={filters.endDate}
            onChange={(e) => setFilter({ endDate: e.currentTarget.value })}
            error={invalidRange ? "The end date must not be before the start date" : undefined}
          />
          <Button variant="light" onClick={() => void exportCsv()} loading={exporting} disabled={count === 0 || invalidRange}>
            Export CSV
          </Button>
        </Group>
        {logs.isError ? (
          <Alert color="red" role="alert">
            {LOAD_FAILED}
          </Alert>
        ) : null}
        {exportError ? (
          <Alert color="red" role="alert">
            {LOAD_FAILED}
          </Alert>
        ) : null}
        {invalidRange ? null : logs.isPending ? (
          <SectionLoader label="Loading login history" />
        ) : rows.length === 0 && !logs.isError ? (
          <EmptyState message="No login attempts found" />
        ) : rows.length > 0 ? (
          <Table.ScrollContainer minWidth={760}>
            <Table striped verticalSpacing="xs" fz="sm" aria-label={`Login history of ${user.username}`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Date/Time</Table.Th>
                  <Table.Th scope="col">Method</Table.Th>
                  <Table.Th scope="col">IP Address</Table.Th>
                  <Table.Th scope="col">Browser</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col">Failure Reason</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td>{formatDateTime(r.created_at)}</Table.Td>
                    <Table.Td>{r.login_method === "email" ? "Email" : "Username"}</Table.Td>
                    <Table.Td ff="monospace">{r.ip_address}</Table.Td>
                    <Table.Td title={r.user_agent ?? undefined}>{browserLabel(r.user_agent)}</Table.Td>
                    <Table.Td>
                      <Badge
                        variant="light"
                        color={r.successful ? "green" : "red"}
                        c={r.successful ? DARK_SHADES.green : undefined}
                        tt="none"
                      >
                        {r.successful ? "Success" : "Failed"}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{r.failure_reason ?? "-"}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
        {count > 0 && !invalidRange ? (
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm">
              Showing {from}-{to} of {count}
            </Text>
            <PageButtons page={page} pageCount={pageCount} onChange={setPage} label="login history" />
          </Group>
        ) : null}
      </Stack>
    </ModalShell>
  );
}
