import { FLAG_UPLOAD_MESSAGES, type FlagVerificationRow, type ProcessFlagsResponse } from "@tally/contract";
import { Alert, Button, Group, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { keptRows } from "../lib/verification-rows";
import { FileValidationErrors } from "./file-validation-errors";
import { UnmatchedRows } from "./unmatched-rows";
import { VerificationTable } from "./verification-table";

interface Props {
  result: ProcessFlagsResponse;
  importing: boolean;
  onImport: (rows: FlagVerificationRow[]) => void;
  headingRef: (el: HTMLHeadingElement | null) => void;
}

/** The row errors, the calculated flags to check, the rows nobody matched, and Import for the rows kept. */
export function VerificationStep({ result, importing, onImport, headingRef }: Props) {
  // Every row starts checked (spec): unchecking leaves a row that looks wrong out of the import.
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set(result.data.map((_, i) => i)));
  const empty = result.data.length === 0;
  return (
    <Stack gap="md">
      <Title order={3} ref={headingRef} tabIndex={-1}>
        Verify calculated flags
      </Title>
      <FileValidationErrors errors={result.validationErrors} count={result.rowErrorCount} />
      {empty ? (
        <Alert color="yellow" role="status">
          {FLAG_UPLOAD_MESSAGES.nothingMatched}
        </Alert>
      ) : (
        <>
          <VerificationTable rows={result.data} selected={selected} onSelect={setSelected} disabled={importing} />
          <Group gap="sm">
            <Button
              onClick={() => onImport(keptRows(result.data, selected))}
              loading={importing}
              disabled={selected.size === 0}
            >
              Import {selected.size} {selected.size === 1 ? "student" : "students"}
            </Button>
            {selected.size === 0 ? <Text size="sm">Check at least one row to import.</Text> : null}
          </Group>
        </>
      )}
      <UnmatchedRows rows={result.unmatched} />
    </Stack>
  );
}
