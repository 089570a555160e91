import { Button, Group, Table } from "@mantine/core";
import type { AdminCohortItem } from "@tally/contract";
import { useState } from "react";
import { BannerAlert } from "../../../components/banner-alert";
import { DataTable, type DataColumn } from "../../../components/data-table";
import { useBanner } from "../../../lib/use-banner";
import { useAdminCohorts } from "../api/get-admin-cohorts";
import { CohortFormModal } from "./cohort-form-modal";
import { ListState } from "./list-state";
import { SettingsSection } from "./settings-section";
import { ImportDoneAlert } from "./weekly-import/import-done-alert";
import { type ImportDone, ImportModal } from "./weekly-import/import-modal";
import { RecentImports } from "./weekly-import/recent-imports";

type Dialog = { kind: "add" } | { kind: "edit"; cohort: AdminCohortItem } | { kind: "import" } | null;

const COLUMNS: readonly DataColumn[] = [
  "Name",
  "Program type",
  "Start",
  "End",
  { label: "Expected hours", align: "right" },
  { label: "Students", align: "right" },
  { label: "Weeks", align: "right" },
  "Actions",
];

const hoursText = (hours: number | null) => (hours === null ? "—" : hours.toLocaleString("en-US"));

/**
 * Spec section "Cohort & Weekly Data Management": the cohorts with their dates, students and
 * weeks (its own admin list, with counts), added and edited here. `importRequested` opens the
 * import (the page's ?import=1, the admin navigation's "Import week").
 */
export function CohortManagementSection({ importRequested = false, onImportClosed }: { importRequested?: boolean; onImportClosed?: () => void }) {
  const cohorts = useAdminCohorts();
  const { banner, show, clear } = useBanner();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [imported, setImported] = useState<ImportDone | null>(null);
  const closeImport = () => {
    setDialog(null);
    onImportClosed?.();
  };

  return (
    <SettingsSection title="Cohort & Weekly Data Management">
      <BannerAlert banner={banner} onClose={clear} />
      <ImportDoneAlert done={imported} onClose={() => setImported(null)} />
      <Group justify="space-between" wrap="wrap">
        <Button onClick={() => setDialog({ kind: "add" })}>Add cohort</Button>
        <Button variant="default" onClick={() => setDialog({ kind: "import" })}>
          Import Weekly Data for Cohort
        </Button>
      </Group>
      <ListState query={cohorts} noun="cohorts">
        {(rows) => (
          <DataTable
            columns={COLUMNS}
            minWidth={760}
            scrollLabel="Cohorts table, scrolls sideways"
            striped
            verticalSpacing="xs"
            aria-label="Cohorts"
          >
            {rows.map((cohort) => (
              <Table.Tr key={cohort.id} data-testid={`cohort-row-${cohort.id}`}>
                <Table.Td fw={600}>{cohort.name}</Table.Td>
                <Table.Td>{cohort.program_type}</Table.Td>
                <Table.Td style={{ whiteSpace: "nowrap" }}>{cohort.start_date}</Table.Td>
                <Table.Td style={{ whiteSpace: "nowrap" }}>{cohort.end_date}</Table.Td>
                <Table.Td ta="right">{hoursText(cohort.total_expected_hours)}</Table.Td>
                <Table.Td ta="right">{cohort.student_count}</Table.Td>
                <Table.Td ta="right">{cohort.week_count}</Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => setDialog({ kind: "edit", cohort })}
                    aria-label={`Edit ${cohort.name}`}
                  >
                    Edit
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </ListState>
      <RecentImports />
      {dialog?.kind === "import" || importRequested ? (
        <ImportModal
          onClose={closeImport}
          onCommitted={(done) => {
            clear();
            setImported(done);
          }}
        />
      ) : dialog ? (
        <CohortFormModal
          key={dialog.kind === "edit" ? dialog.cohort.id : "add"}
          cohort={dialog.kind === "edit" ? dialog.cohort : undefined}
          onClose={() => setDialog(null)}
          onSaved={(text) => show("success", text)}
        />
      ) : null}
    </SettingsSection>
  );
}
