import { Button, Group, Stack, Text } from "@mantine/core";
import type { ErasureCounts } from "@tally/contract";
import { useState } from "react";
import { ModalShell } from "../../../components/modal-shell";
import { useRunRetention } from "../api/run-retention";
import { RetentionPreview } from "./retention-preview";

interface Props {
  years: number;
  onDone: (counts: ErasureCounts) => void;
  onFailed: () => void;
}

/** "Run now": the nightly retention run, at once, after a confirmation that shows what goes. */
export function RunRetentionButton({ years, onDone, onFailed }: Props) {
  const [confirming, setConfirming] = useState(false);
  const run = useRunRetention();
  const confirm = () =>
    run.mutate(undefined, {
      onSuccess: (counts) => {
        setConfirming(false);
        onDone(counts);
      },
      onError: () => {
        setConfirming(false);
        onFailed();
      },
    });
  return (
    <>
      <Button variant="default" color="red" onClick={() => setConfirming(true)}>
        Run now
      </Button>
      {confirming && (
        <ModalShell title="Run retention now?" onClose={() => setConfirming(false)}>
          <Stack gap="md">
            <RetentionPreview years={years} />
            <Text size="sm">
              Their attendance, weekly data, reflections, notes and memberships are erased for good. The record of access keeps only an
              anonymous id.
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
              <Button color="red" onClick={confirm} loading={run.isPending} data-autofocus>
                Remove students
              </Button>
            </Group>
          </Stack>
        </ModalShell>
      )}
    </>
  );
}
