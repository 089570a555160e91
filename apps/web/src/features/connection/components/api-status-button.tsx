import { ActionIcon, Box, Stack, Text, Tooltip, VisuallyHidden } from "@mantine/core";
import { HEALTH_CHECK_URL, HEALTH_MESSAGES, checkHealth, healthStore, useHealth } from "../../../lib/health";

function formatTime(iso: string | null): string {
  return iso ? new Date(iso).toLocaleTimeString() : "not yet";
}

/**
 * Spec "Other screens": a floating button, bottom right on every page, showing whether the
 * API answers. The tooltip opens on hover and on keyboard focus; clicking checks again. The
 * polite live region makes a screen reader say when the state changes, not only on focus.
 */
export function ApiStatusButton() {
  const { isOnline, isChecking, error, lastChecked } = useHealth();
  const message = isOnline ? HEALTH_MESSAGES.online : (error ?? HEALTH_MESSAGES.unreachable);
  const url = new URL(HEALTH_CHECK_URL, window.location.origin).href;
  const label = (
    <Stack gap={2} data-testid="api-status-tooltip">
      <Text size="sm" fw={600} inherit>
        {message}
      </Text>
      <Text size="xs" inherit>
        {isChecking ? "Checking now…" : `Last checked: ${formatTime(lastChecked)}`}
      </Text>
      <Text size="xs" inherit>
        Health check: {url}
      </Text>
    </Stack>
  );
  return (
    // Above the page (app shell 100), below modals (200): an open dialog covers it.
    <Box pos="fixed" bottom={16} right={16} style={{ zIndex: 150 }}>
      <Tooltip label={label} position="top-end" multiline maw={320} events={{ hover: true, focus: true, touch: true }}>
        <ActionIcon
          size="lg"
          radius="xl"
          variant="filled"
          color={isOnline ? "teal.8" : "red.8"}
          aria-label={`API status: ${isOnline ? "online" : "offline"}. Check the connection now`}
          data-testid="api-status-button"
          onClick={() => {
            // A check already running answers this click too.
            if (!healthStore.get().isChecking) void checkHealth();
          }}
        >
          <Box component="span" w={10} h={10} bg="white" style={{ borderRadius: "50%" }} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <VisuallyHidden role="status" aria-live="polite" data-testid="api-status-live">
        {isOnline ? HEALTH_MESSAGES.online : `API offline: ${message}`}
      </VisuallyHidden>
    </Box>
  );
}
