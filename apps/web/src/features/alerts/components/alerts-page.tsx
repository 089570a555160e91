import { Alert, Button, Group, Stack, Text, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { canExport, isAdminRole } from "@tally/contract";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { PagedList } from "../../../components/paged-list";
import { errorText } from "../../../lib/api-error";
import { useCurrentUser } from "../../../lib/auth-store";
import { useFeatureSettings } from "../../../lib/feature-settings";
import { readAlertFilters, writeAlertFilters, type AlertFilters } from "../api/alert-filters";
import { useBulkAlerts } from "../api/bulk-alerts";
import { useDownloadAlertsCsv } from "../api/download-alerts-csv";
import { ALERTS_PER_PAGE, useAlerts } from "../api/get-alerts";
import { AlertFilterBar } from "./alert-filter-bar";
import { AlertsTable } from "./alerts-table";

const SEARCH_DEBOUNCE_MS = 300;

/** "Needs attention" (/alerts): the call list, urgent first, for every role in its own scope. */
export function AlertsPage() {
  const user = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const typed = readAlertFilters(params);
  // The header's search is typed into the address letter by letter: the list asks once it settles.
  const [q] = useDebouncedValue(typed.q.trim(), SEARCH_DEBOUNCE_MS);
  const filters: AlertFilters = { ...typed, q };
  const alerts = useAlerts(filters);
  const bulk = useBulkAlerts();
  const csv = useDownloadAlertsCsv();
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [done, setDone] = useState<string | null>(null);
  // The CSV is an export: hidden where the school's export setting is off, as the dashboard's
  // Export menu is (the server refuses it there too).
  const admin = user !== null && isAdminRole(user.role);
  const features = useFeatureSettings(user?.role === "school_user" ? user.school_id : filters.schoolId, user !== null && !admin);
  const exportAllowed = user !== null && (features.data ? canExport(user, features.data) : admin);

  const setFilters = (next: AlertFilters) => {
    setSelected(new Set());
    // The search is the header's: a choice here keeps what is typed there, settled or not.
    setParams(writeAlertFilters({ ...next, q: typed.q }));
  };
  const toggle = (id: number, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const rows = alerts.data?.data ?? [];
  const acknowledge = () =>
    bulk.mutate(
      { ids: [...selected], action: "acknowledge" },
      {
        onSuccess: (result) => {
          setSelected(new Set());
          const skipped = result.skipped.length > 0 ? `, ${result.skipped.length} skipped` : "";
          setDone(`${result.updated} acknowledged${skipped}.`);
        },
      },
    );
  const schoolUser = user?.role === "school_user";

  return (
    <Stack gap="md" p="md">
      <Title order={1}>Needs attention</Title>
      <Text c="dimmed" size="sm">
        Students the alert rules raised, urgent first. Open a student to follow up.
      </Text>
      <AlertFilterBar filters={filters} onChange={setFilters} showSchoolFilter={!schoolUser} />
      {q ? (
        <Text size="sm" c="dimmed" data-testid="search-scope">
          Only the students matching “{q}”.
        </Text>
      ) : null}
      <Group gap="sm" wrap="wrap">
        <Button disabled={selected.size === 0} loading={bulk.isPending} onClick={acknowledge}>
          Acknowledge selected{selected.size > 0 ? ` (${selected.size})` : ""}
        </Button>
        {exportAllowed ? (
          <Button variant="default" loading={csv.isPending} onClick={() => csv.mutate(filters)}>
            Download CSV
          </Button>
        ) : null}
      </Group>
      <div role="status">{done ? <Text size="sm">{done}</Text> : null}</div>
      {bulk.isError ? (
        <Alert color="red" role="alert">
          {errorText(bulk.error, "The alerts could not be acknowledged. Please try again.")}
        </Alert>
      ) : null}
      {csv.isError ? (
        <Alert color="red" role="alert">
          {errorText(csv.error, "The CSV could not be downloaded. Please try again.")}
        </Alert>
      ) : null}
      {alerts.isError ? (
        <Alert color="red" role="alert">
          {errorText(alerts.error, "Failed to load the alerts. Please try again.")}
        </Alert>
      ) : null}
      <PagedList
        hidden={false}
        pending={alerts.isPending}
        failed={alerts.isError}
        rowCount={rows.length}
        total={alerts.data?.total ?? 0}
        page={filters.page}
        pageSize={ALERTS_PER_PAGE}
        onPageChange={(page) => setFilters({ ...filters, page })}
        loadingLabel="Loading alerts"
        emptyMessage="No student needs attention under these filters."
        pagesLabel="alerts"
      >
        <AlertsTable
          alerts={rows}
          selected={selected}
          onToggle={toggle}
          onToggleAll={(on) => setSelected(on ? new Set(rows.map((a) => a.id)) : new Set())}
          ownSchoolId={schoolUser ? (user?.school_id ?? null) : null}
        />
      </PagedList>
    </Stack>
  );
}
