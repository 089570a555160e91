import { Button, Group, Text } from "@mantine/core";
import type { CohortItem } from "@tally/contract";
import { SettingsSection } from "./settings-section";

/** Spec section "Cohort & Weekly Data Management". */
export function CohortManagementSection({ cohorts }: { cohorts: CohortItem[] }) {
  return (
    <SettingsSection title="Cohort & Weekly Data Management">
      <Text size="sm" c="dimmed">
        {cohorts.length} cohorts on record. Weekly data import is being built.
      </Text>
      <Group>
        <Button disabled>Import Weekly Data for Cohort</Button>
      </Group>
    </SettingsSection>
  );
}
