import { Button, Group, Table, Text } from "@mantine/core";
import type { AdminSchoolItem } from "@tally/contract";
import { useState } from "react";
import { BannerAlert } from "../../../components/banner-alert";
import { DataTable, type DataColumn } from "../../../components/data-table";
import { useBanner } from "../../../lib/use-banner";
import { useAdminSchools } from "../api/get-admin-schools";
import { SchoolFormModal } from "./school-form-modal";
import { ListState } from "./list-state";
import { SettingsSection } from "./settings-section";

const COLUMNS: readonly DataColumn[] = ["Name", "District", { label: "Students", align: "right" }, "Actions"];

type Dialog = { kind: "add" } | { kind: "rename"; school: AdminSchoolItem } | null;

/** Spec section "System Settings": the schools a programme runs with, added and renamed here. */
export function SystemSettingsSection() {
  const schools = useAdminSchools();
  const { banner, show, clear } = useBanner();
  const [dialog, setDialog] = useState<Dialog>(null);
  const onSaved = (text: string) => show("success", text);

  return (
    <SettingsSection title="System Settings">
      <BannerAlert banner={banner} onClose={clear} />
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed">
          Schools in the programme. The demo school is managed under Demo school settings.
        </Text>
        <Button onClick={() => setDialog({ kind: "add" })}>Add school</Button>
      </Group>
      <ListState query={schools} noun="schools">
        {(rows) => (
          <DataTable
            columns={COLUMNS}
            minWidth={480}
            scrollLabel="Schools table, scrolls sideways"
            striped
            verticalSpacing="xs"
            aria-label="Schools"
          >
            {rows.map((school) => (
              <Table.Tr key={school.id} data-testid={`school-row-${school.id}`}>
                <Table.Td fw={600}>{school.name}</Table.Td>
                <Table.Td>{school.district || "—"}</Table.Td>
                <Table.Td ta="right">{school.student_count}</Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => setDialog({ kind: "rename", school })}
                    aria-label={`Rename ${school.name}`}
                  >
                    Rename
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </ListState>
      {dialog ? (
        <SchoolFormModal
          key={dialog.kind === "rename" ? dialog.school.id : "add"}
          school={dialog.kind === "rename" ? dialog.school : undefined}
          onClose={() => setDialog(null)}
          onSaved={onSaved}
        />
      ) : null}
    </SettingsSection>
  );
}
