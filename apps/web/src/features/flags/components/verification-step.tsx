import { FLAG_UPLOAD_MESSAGES, type FlagVerificationRow, type ProcessFlagsResponse } from "@tally/contract";
import { Alert, Box, Button, Group, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { keptRows } from "../lib/verification-rows";
import { BenefitIdConflicts } from "./benefit-id-conflicts";
import { FileValidationErrors } from "./file-validation-errors";
import { UnmatchedRows } from "./unmatched-rows";
import { VerificationTable } from "./verification-table";

interface Props {
  result: ProcessFlagsResponse;
  importing: boolean;
  onImport: (rows: FlagVerificationRow[]) => void;
  headingRef: (el: HTMLHeadingElement | null) => void;
}

// The footer stays in view while a long table scrolls: the count and Import are always one glance away.
const STICKY_FOOTER = {
  position: "sticky",
  bottom: 0,
  zIndex: 2,
  background: "var(--mantine-color-body)",
  borderTop: "1px solid var(--mantine-color-default-border)",
  boxShadow: "0 -4px 8px rgba(0, 0, 0, 0.06)",
} as const;

/** The row errors, the ID conflicts, the calculated flags to check, the rows nobody matched, and Import for the rows kept. */
export function VerificationStep({ result, importing, onImport, headingRef }: Props) {
  // Every row starts checked (spec): unchecking leaves a row that looks wrong out of the import.
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set(result.data.map((_, i) => i)));
  const empty = result.data.length === 0;
  const flagged = result.data.reduce((n, row, i) => n + (selected.has(i) && row.calculated_flags.length > 0 ? 1 : 0), 0);
  return (
    <Stack gap="md">
      <Title order={3} ref={headingRef} tabIndex={-1}>
        Verify calculated flags
      </Title>
      <FileValidationErrors errors={result.validationErrors} count={result.rowErrorCount} />
      <BenefitIdConflicts conflicts={result.benefitIdConflicts} when="before" />
      {empty ? (
        <Alert color="yellow" role="status">
          {FLAG_UPLOAD_MESSAGES.nothingMatched}
        </Alert>
      ) : (
        <>
          <VerificationTable rows={result.data} selected={selected} onSelect={setSelected} disabled={importing} />
          {/* Room on the right for the floating connection button, which sits over the window's corner. */}
          <Box style={STICKY_FOOTER} py="sm" pr={56} data-testid="verification-footer">
            <Group justify="space-between" gap="sm">
              <Stack gap={0}>
                <Text size="sm" fw={500} data-testid="selection-count">
                  {selected.size} of {result.data.length} students checked for import
                </Text>
                <Text size="sm" c="dimmed">
                  {selected.size === 0 ? "Check at least one row to import." : `${flagged} of them with flags`}
                </Text>
              </Stack>
              <Button
                onClick={() => onImport(keptRows(result.data, selected))}
                loading={importing}
                disabled={selected.size === 0}
              >
                Import {selected.size} {selected.size === 1 ? "student" : "students"}
              </Button>
            </Group>
          </Box>
        </>
      )}
      <UnmatchedRows rows={result.unmatched} />
    </Stack>
  );
}
