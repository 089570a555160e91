import { FLAG_UPLOAD_MESSAGES, type ConfirmFlagImportResponse } from "@tally/contract";
import { Alert, List, Stack } from "@mantine/core";
import { BenefitIdConflicts } from "./benefit-id-conflicts";

/** "Flags imported successfully!" and what the import changed; the ID conflicts as a warning beside it. */
export function ImportResult({
  response,
  focusRef,
}: {
  response: ConfirmFlagImportResponse;
  focusRef: (el: HTMLDivElement | null) => void;
}) {
  const { summary } = response;
  return (
    <Stack gap="sm">
      <Alert color="green" role="status" title={FLAG_UPLOAD_MESSAGES.imported} ref={focusRef} tabIndex={-1} data-testid="flag-import-success">
        <List size="sm">
          <List.Item>Students imported: {summary.studentsImported}</List.Item>
          <List.Item>Weeks created: {summary.weeklyDataCreated}</List.Item>
          <List.Item>Weeks updated: {summary.weeklyDataUpdated}</List.Item>
          <List.Item>Unchanged: {summary.unchanged}</List.Item>
          <List.Item>Benefit Assignment IDs stored: {summary.benefitAssignmentIdsStored}</List.Item>
        </List>
      </Alert>
      <BenefitIdConflicts conflicts={response.benefitIdConflicts} when="after" />
    </Stack>
  );
}
