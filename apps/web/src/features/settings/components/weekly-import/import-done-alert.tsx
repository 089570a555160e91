import { Alert, Anchor, Text } from "@mantine/core";
import { Link } from "react-router";
import type { ImportDone } from "./import-modal";

/**
 * The import's success message: stays until dismissed (it names skipped rows a coordinator
 * may need to mend) and opens the dashboard filtered to the imported cohort.
 */
export function ImportDoneAlert({ done, onClose }: { done: ImportDone | null; onClose: () => void }) {
  if (!done) return null;
  return (
    <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss message" onClose={onClose} data-testid="success-banner">
      <Text size="sm">{done.text}</Text>
      <Anchor component={Link} to={`/dashboard?cohort=${done.cohortId}`} size="sm" fw={600} data-testid="import-dashboard-link">
        Open the dashboard for this cohort
      </Anchor>
    </Alert>
  );
}
