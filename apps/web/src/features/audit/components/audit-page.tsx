import { Alert, Group, Stack, Text, Title } from "@mantine/core";
import { AUDIT_LIMITS } from "@tally/contract";
import { useState } from "react";
import { EmptyState } from "../../../components/empty-state";
import { PageButtons } from "../../../components/page-buttons";
import { SectionLoader } from "../../../components/section-loader";
import { pageBounds } from "../../../lib/paging";
import { useExportAuditCsv } from "../api/export-audit-csv";
import { type AuditFilterFields, NO_AUDIT_FILTERS, useAuditEntries } from "../api/get-audit-entries";
import { AuditFilters } from "./audit-filters";
import { AuditTable } from "./audit-table";

const LOAD_FAILED = "Failed to load the audit log. Please try again.";
const EXPORT_FAILED = "Failed to export the audit log. Please try again.";

/** /admin/audit for super admins: every recorded change, newest first, filtered, paged, exported. */
export function AuditPage() {
  const [fields, setFields] = useState<AuditFilterFields>(NO_AUDIT_FILTERS);
  const [page, setPage] = useState(1);
  const invalidRange = fields.from !== "" && fields.to !== "" && fields.from > fields.to;
  const entries = useAuditEntries(fields, page, !invalidRange);
  const exportCsv = useExportAuditCsv();

  const setFilter = (patch: Partial<AuditFilterFields>) => {
    setFields((f) => ({ ...f, ...patch }));
    setPage(1);
  };

  const count = entries.data?.count ?? 0;
  const rows = entries.data?.rows ?? [];
  const { pageCount, from, to } = pageBounds(page, AUDIT_LIMITS.pageSize, count);

  return (
    <Stack gap="lg">
      <Title order={1}>Audit Log</Title>
      <Text c="dimmed">Every change to users, school access, settings, imports and flags, report e-mails and student-data exports: who, when, from where, and what changed.</Text>
      <AuditFilters
        fields={fields}
        choices={entries.data?.choices}
        invalidRange={invalidRange}
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
      {invalidRange ? null : entries.isPending ? (
        <SectionLoader label="Loading the audit log" />
      ) : rows.length === 0 && !entries.isError ? (
        <EmptyState message="No audit entries match these filters" />
      ) : rows.length > 0 ? (
        <AuditTable rows={rows} />
      ) : null}
      {count > 0 && !invalidRange ? (
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="sm">
            Showing {from}-{to} of {count}
          </Text>
          <PageButtons page={page} pageCount={pageCount} onChange={setPage} label="audit entries" />
        </Group>
      ) : null}
    </Stack>
  );
}
