import { Badge, Button, Group, Loader, Table, Text, Title } from "@mantine/core";
import type { ImportBatch } from "@tally/contract";
import { useId, useState } from "react";
import { BannerAlert } from "../../../../components/banner-alert";
import { DataTable, type DataColumn } from "../../../../components/data-table";
import { useBanner } from "../../../../lib/use-banner";
import { useImports } from "../../api/get-imports";
import { batchCountLines, batchDateText } from "./recent-imports-text";
import { UndoImportDialog } from "./undo-import-dialog";

/** The weekly import, or the flag uploader's import of calculated flags (issue 12). */
const IMPORT_KIND_LABELS: Record<ImportBatch["kind"], string> = { weekly: "Weekly data", flags: "Flags" };

const COLUMNS: readonly DataColumn[] = ["Date", "By", "Type", "Cohort", { label: "Week", align: "right" }, "Files", "Counts", "Actions"];

/** "Recent imports": who imported which week when, with Undo on the newest of each cohort. */
export function RecentImports() {
  const imports = useImports();
  const { banner, show, clear } = useBanner();
  const [undoing, setUndoing] = useState<ImportBatch | null>(null);
  const titleId = useId();

  return (
    <>
      <Title order={3} size="h4" mt="sm" id={titleId}>
        Recent imports
      </Title>
      <Text size="sm" c="dimmed" data-testid="undo-rule">
        Only the newest import of a cohort can be undone: to undo an older one, undo the newer imports of that cohort first.
      </Text>
      <BannerAlert banner={banner} onClose={clear} />
      {imports.isPending ? (
        <Group gap="xs" role="status">
          <Loader size="xs" aria-hidden="true" />
          <Text size="sm">Loading imports...</Text>
        </Group>
      ) : imports.isError ? (
        <Group gap="sm">
          <Text c="red" size="sm" role="alert">
            Failed to load imports. Please try again.
          </Text>
          <Button size="xs" variant="default" onClick={() => void imports.refetch()}>
            Retry
          </Button>
        </Group>
      ) : imports.data.length === 0 ? (
        <Text size="sm">No imports yet.</Text>
      ) : (
        <DataTable
          columns={COLUMNS}
          minWidth={900}
          scrollLabel="Recent imports table, scrolls sideways"
          striped
          verticalSpacing="xs"
          aria-labelledby={titleId}
        >
          {imports.data.map((batch) => (
            <Table.Tr key={batch.id} data-testid={`import-row-${batch.id}`}>
              <Table.Td miw={110}>{batchDateText(batch.createdAt)}</Table.Td>
              <Table.Td>{batch.userName ?? "—"}</Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{IMPORT_KIND_LABELS[batch.kind]}</Table.Td>
              <Table.Td miw={120}>{batch.cohortName ?? "(removed)"}</Table.Td>
              <Table.Td ta="right">{batch.weekNumber}</Table.Td>
              <Table.Td>
                {batch.files.map((file) => (
                  <Text key={file.field} size="xs" style={{ whiteSpace: "nowrap" }}>
                    {file.name}
                  </Text>
                ))}
              </Table.Td>
              <Table.Td>
                {batchCountLines(batch.summary, batch.kind).map((line) => (
                  <Text key={line} size="xs" style={{ whiteSpace: "nowrap" }}>
                    {line}
                  </Text>
                ))}
              </Table.Td>
              <Table.Td miw={120}>
                {batch.undoneAt ? (
                  // Never cut to "Und…": the badge keeps its whole word.
                  <Badge color="gray" variant="light" style={{ overflow: "visible", flexShrink: 0 }} styles={{ label: { overflow: "visible" } }}>
                    Undone
                  </Badge>
                ) : batch.canUndo ? (
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    onClick={() => setUndoing(batch)}
                    aria-label={`Undo import of ${batch.cohortName ?? "cohort"} week ${batch.weekNumber}`}
                  >
                    Undo
                  </Button>
                ) : (
                  <Text size="xs" c="dimmed">
                    Undo the newer import first
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
      {undoing ? (
        <UndoImportDialog
          key={undoing.id}
          batch={undoing}
          onClose={() => setUndoing(null)}
          onDone={(message) => show("success", message)}
        />
      ) : null}
    </>
  );
}
