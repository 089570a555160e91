import { Box } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * The dialog's buttons, kept in view at the bottom of the scrolling dialog (an 800 px-high
 * window showed the preview's Confirm only after scrolling past every student).
 */
export function StickyFooter({ children }: { children: ReactNode }) {
  return (
    <Box
      data-testid="import-footer"
      style={{
        position: "sticky",
        bottom: 0,
        zIndex: 2,
        background: "var(--mantine-color-body)",
        borderTop: "1px solid var(--mantine-color-gray-3)",
        paddingBlock: "var(--mantine-spacing-sm)",
        marginBottom: "calc(var(--mantine-spacing-md) * -1)",
        paddingBottom: "var(--mantine-spacing-md)",
      }}
    >
      <Box style={{ display: "flex", flexDirection: "column", gap: "var(--mantine-spacing-sm)" }}>{children}</Box>
    </Box>
  );
}
