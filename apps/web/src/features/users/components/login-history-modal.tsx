import { Alert, Badge, Button, Group, NativeSelect, Stack, Table } from "@mantine/core";
import { LIMITS, type LoginLogRow, loginFailureText, type UserListItem } from "@tally/contract";
import { useState } from "react";
import { DataTable } from "../../../components/data-table";
import { DateRangeInputs, datesOutOfOrder } from "../../../components/date-range-inputs";
import { ModalShell } from "../../../components/modal-shell";
import { PagedList } from "../../../components/paged-list";
import { downloadCsv } from "../../../lib/csv";
import { getAllLoginLogs, type LoginLogFilters, type LoginStatusFilter, useLoginLogs } from "../api/get-login-logs";
import { browserLabel } from "../lib/browser-label";
import { loginHistoryCsv, loginHistoryFileName } from "../lib/login-history-csv";
import { DARK_SHADES } from "../lib/user-rules";
import { formatDateTime } from "../lib/date-time-text";

const COLUMNS = ["Date/Time", "Method", "IP Address", "Browser", "Status", "Failure Reason"];

/** Email, Username, or the single sign-on's provider id. */
function methodLabel(r: LoginLogRow): string {
  if (r.login_method === "oidc") return `SSO (${r.provider ?? "unknown"})`;
  return r.login_method === "email" ? "Email" : "Username";
}

const LOAD_FAILED = "Failed to load login history. Please try again.";

/** Sign-in attempts of one account: 10 per page, filters, CSV export of every filtered row. */
export function LoginHistoryModal({ user, onClose }: { user: UserListItem; onClose: () => void }) {
  const [filters, setFilters] = useState<LoginLogFilters>({ status: "all", startDate: "", endDate: "" });
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState(false);
  const invalidRange = datesOutOfOrder(filters.startDate, filters.endDate);
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
          <DateRangeInputs
            from={filters.startDate}
            to={filters.endDate}
            onChange={({ from, to }) => setFilter({ startDate: from, endDate: to })}
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
        <PagedList
          hidden={invalidRange}
          pending={logs.isPending}
          failed={logs.isError}
          rowCount={rows.length}
          total={count}
          page={page}
          pageSize={LIMITS.loginHistoryPageSize}
          onPageChange={setPage}
          loadingLabel="Loading login history"
          emptyMessage="No login attempts found"
          pagesLabel="login history"
        >
          <DataTable columns={COLUMNS} minWidth={760} striped verticalSpacing="xs" fz="sm" aria-label={`Login history of ${user.username}`}>
            {rows.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>{formatDateTime(r.created_at)}</Table.Td>
                <Table.Td>{methodLabel(r)}</Table.Td>
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
                <Table.Td>{loginFailureText(r.failure_reason)}</Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        </PagedList>
      </Stack>
    </ModalShell>
  );
}
