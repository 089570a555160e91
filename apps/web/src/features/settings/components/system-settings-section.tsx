import { Text } from "@mantine/core";
import { SettingsSection } from "./settings-section";

/** Spec section "System Settings". */
export function SystemSettingsSection() {
  return (
    <SettingsSection title="System Settings">
      <Text size="sm" c="dimmed">
        System settings will be available in a future release.
      </Text>
    </SettingsSection>
  );
}
