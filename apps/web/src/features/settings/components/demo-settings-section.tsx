import { Text } from "@mantine/core";
import { SettingsSection } from "./settings-section";

/** Spec section "Demo school settings". */
export function DemoSettingsSection() {
  return (
    <SettingsSection title="Demo school settings">
      <Text size="sm" c="dimmed">
        Settings of the demo school will be managed here.
      </Text>
    </SettingsSection>
  );
}
