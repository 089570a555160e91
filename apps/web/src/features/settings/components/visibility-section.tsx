import { Text } from "@mantine/core";
import { SettingsSection } from "./settings-section";

/** Spec section "School Data Visibility". */
export function VisibilitySection() {
  return (
    <SettingsSection title="School Data Visibility">
      <Text size="sm" c="dimmed">
        Per-cohort visibility for school and district users will be managed here.
      </Text>
    </SettingsSection>
  );
}
