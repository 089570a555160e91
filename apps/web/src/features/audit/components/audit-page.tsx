import { Alert, Stack, Text, Title } from "@mantine/core";
import { AUDIT_LIMITS } from "@tally/contract";
import { useState } from "react";
import { datesOutOfOrder } from "../../../components/date-range-inputs";
import { PagedList } from "../../../components/paged-list";
import { useExportAuditCsv } from "../api/export-audit-csv";
import { type AuditFilterFields, NO_AUDIT_FILTERS, useAuditEntries } from "../api/get-audit-entries";
import { AuditFilters } from "./audit-filters";
import { AuditTable } from "./audit-table";

const NO_NAMES = { schools: {}, cohorts: {} };
const LOAD_FAILED = "Failed to load the audit log. Please try again.";
const EXPORT_FAILED = "Failed to export the audit log. Please try again.";

/** /admin/audit for super admins: every recorded change, newest first, filtered, paged, exported. */
export function AuditPage() {
  const [fields, setFields] = useState<AuditFilterFields>(NO_AUDIT_FILTERS);
  const [page, setPage] = useState(1);
  const invalidRange = datesOutOfOrder(fields.from, fields.to);
  const entries = useAuditEntries(fields, page, !invalidRange);
  const exportCsv = useExportAuditCsv();

  const setFilter = (patch: Partial<AuditFilterFields>) => {
    setFields((f) => ({ ...f, ...patch }));
    setPage(1);
  };

  const count = entries.data?.count ?? 0;
  const rows = entries.data?.rows ?? [];

  return (
    <Stack gap="lg">
      <Title order={1}>Audit Log</Title>
      <Text c="dimmed">Every change to users, school access, settings, imports and flags, report e-mails and student-data exports: who, when, from where, and what changed.</Text>
      <AuditFilters
        fields={fields}
        choices={entries.data?.choices}
        onChange={setFilter}
        onExport={() => exportCsv.mutate(fields)}
        exporting={exportCsv.isPending}
        canExport={count > 0 && !invalidRange}
      />
      {entries.isError ? (
        <Alert color="red" role="alert">
          {LOAD_FAILED}
        </Alert>
      ) : null}
      {exportCsv.isError ? (
        <Alert color="red" role="alert">
          {EXPORT_FAILED}
        </Alert>
      ) : null}
      <PagedList
        hidden={invalidRange}
        pending={entries.isPending}
        failed={entries.isError}
        rowCount={rows.length}
        total={count}
        page={page}
        pageSize={AUDIT_LIMITS.pageSize}
        onPageChange={setPage}
        loadingLabel="Loading the audit log"
        emptyMessage="No audit entries match these filters"
        pagesLabel="audit entries"
      >
        <AuditTable rows={rows} names={entries.data?.names ?? NO_NAMES} />
      </PagedList>
    </Stack>
  );
}
