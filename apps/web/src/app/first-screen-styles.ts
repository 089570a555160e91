// Issue 29: only the Mantine styles the first screen (the sign-in page, its header and the
// page loader) needs block the first paint; every other component's styles follow once the
// app has rendered (loadRemainingStyles). All are the "layer" builds, in @layer mantine, so
// the order they arrive in never lets Mantine's rules win over the app's own CSS modules.
// Mantine's per-component order: a component's dependencies come before it.
import "@mantine/core/styles/baseline.layer.css";
import "@mantine/core/styles/default-css-variables.layer.css";
import "@mantine/core/styles/global.layer.css";
import "@mantine/core/styles/UnstyledButton.layer.css";
import "@mantine/core/styles/VisuallyHidden.layer.css";
import "@mantine/core/styles/Paper.layer.css";
import "@mantine/core/styles/Popover.layer.css";
import "@mantine/core/styles/CloseButton.layer.css";
import "@mantine/core/styles/Group.layer.css";
import "@mantine/core/styles/Loader.layer.css";
import "@mantine/core/styles/Input.layer.css";
import "@mantine/core/styles/Container.layer.css";
import "@mantine/core/styles/Center.layer.css";
import "@mantine/core/styles/Stack.layer.css";
import "@mantine/core/styles/Text.layer.css";
import "@mantine/core/styles/Title.layer.css";
import "@mantine/core/styles/Anchor.layer.css";
import "@mantine/core/styles/ActionIcon.layer.css";
import "@mantine/core/styles/Alert.layer.css";
import "@mantine/core/styles/Button.layer.css";
import "@mantine/core/styles/Divider.layer.css";
import "@mantine/core/styles/PasswordInput.layer.css";
import "@mantine/core/styles/Tooltip.layer.css";
import "@mantine/core/styles/Notification.layer.css";
import "@mantine/notifications/styles.layer.css";

/** Every other Mantine style (dashboards, menus, modals, tables…): fetched after the first render. */
export function loadRemainingStyles(): Promise<unknown> {
  return import("./remaining-styles");
}
