import { Progress, Stack, Text } from "@mantine/core";
import { IMPORT_STAGE_LABELS, type ImportStage } from "@tally/contract";

export interface ImportProgressState {
  /** Percent of the files sent. */
  percent: number;
  /** The server's latest stage once the files are in. */
  stage: ImportStage | null;
}

export const NO_PROGRESS: ImportProgressState = { percent: 0, stage: null };

function progressText({ percent, stage }: ImportProgressState): string {
  if (stage) return IMPORT_STAGE_LABELS[stage];
  if (percent < 100) return `Uploading files… ${percent}%`;
  return "Files sent, waiting for the server…";
}

/** The upload bar, then the server's stage; the text is a live region so it is announced. */
export function ImportProgress({ progress }: { progress: ImportProgressState }) {
  const text = progressText(progress);
  return (
    <Stack gap={4} data-testid="import-progress">
      <Progress
        value={progress.percent}
        striped={progress.stage !== null}
        animated={progress.stage !== null}
        aria-label="Upload progress"
        size="lg"
      />
      <Text size="sm" role="status" aria-live="polite">
        {text}
      </Text>
    </Stack>
  );
}
