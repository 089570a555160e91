import { Text } from "@mantine/core";
import { SettingsSection } from "./settings-section";

/** Spec section "School Feature Settings". */
export function FeatureSettingsSection() {
  return (
    <SettingsSection title="School Feature Settings">
      <Text size="sm" c="dimmed">
        Feature switches for all schools or per school will be managed here.
      </Text>
    </SettingsSection>
  );
}
