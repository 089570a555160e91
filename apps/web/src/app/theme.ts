import { type CSSVariablesResolver, Input, Modal, PasswordInput, createTheme } from "@mantine/core";
import focusRing from "./focus-ring.module.css";

/**
 * Darker filled shades and text tokens than Mantine's defaults so text and buttons meet
 * WCAG AA contrast (4.5:1) on white.
 */
export const theme = createTheme({
  primaryColor: "blue",
  primaryShade: { light: 9, dark: 8 },
  autoContrast: true,
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  defaultRadius: "md",
  components: {
    // Mantine's "Toggle password visibility" name would make the field's label "Password"
    // ambiguous for label-based lookups (screen-reader rotors, browser tests).
    // Mantine takes the toggle out of the tab order; a keyboard user needs it as much as anyone.
    PasswordInput: PasswordInput.extend({
      defaultProps: { visibilityToggleFocusable: true, visibilityToggleButtonProps: { "aria-label": "Show or hide characters" } },
    }),
    // Every text input, select and combobox is an Input underneath: one place for the focus ring.
    Input: Input.extend({ classNames: { input: focusRing.input } }),
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { "aria-label": "Close" } } }),
  },
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    "--mantine-color-dimmed": "var(--mantine-color-gray-7)",
    "--mantine-color-placeholder": "var(--mantine-color-gray-7)",
    "--mantine-color-error": "var(--mantine-color-red-9)",
    // Mantine's yellow and orange 9 shades are too light for text on their light backgrounds.
    "--mantine-color-yellow-light-color": "#5c3d00",
    "--mantine-color-orange-light-color": "#7a2e00",
  },
  dark: {},
});
