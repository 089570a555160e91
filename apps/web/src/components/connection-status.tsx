import { Box, Button, Stack, Text, Tooltip, VisuallyHidden } from "@mantine/core";
import { isAdminRole } from "@tally/contract";
import { useCurrentUser } from "../lib/auth-store";
import { HEALTH_CHECK_URL, HEALTH_MESSAGES, checkHealth, healthStore, useHealth } from "../lib/health";

function formatTime(iso: string | null): string {
  return iso ? new Date(iso).toLocaleTimeString() : "not yet";
}

/**
 * Whether the API answers, as a small indicator in the page's header (issue 29: the spec's
 * floating button covered controls on phones). Nothing shows while the API answers; when it
 * does not, a red "Offline" (no answer) or "Server issues" (it answers with errors) that
 * checks again when pressed, with a tooltip on hover, focus and touch. The health-check
 * address is for admins (and the /debug page), not coordinators. The polite live region makes
 * a screen reader say when the state changes.
 */
export function ConnectionStatus() {
  const { isOnline, isChecking, error, lastChecked } = useHealth();
  const user = useCurrentUser();
  const message = isOnline ? HEALTH_MESSAGES.online : (error ?? HEALTH_MESSAGES.unreachable);
  const word = error === HEALTH_MESSAGES.serverError ? "Server issues" : "Offline";
  const label = (
    <Stack gap={2} data-testid="api-status-tooltip">
      <Text size="sm" fw={600} inherit>
        {message}
      </Text>
      <Text size="xs" inherit>
        {isChecking ? "Checking now…" : `Last checked: ${formatTime(lastChecked)}. Press to check again.`}
      </Text>
      {user && isAdminRole(user.role) ? (
        <Text size="xs" inherit>
          Health check: {new URL(HEALTH_CHECK_URL, window.location.origin).href}
        </Text>
      ) : null}
    </Stack>
  );
  return (
    <Box style={{ flexShrink: 0 }}>
      {isOnline ? null : (
        <Tooltip label={label} position="bottom-end" multiline maw={300} events={{ hover: true, focus: true, touch: true }}>
          <Button
            size="compact-sm"
            variant="light"
            color="red"
            aria-label={`${word}: check the connection again`}
            data-testid="api-status-button"
            leftSection={<Box component="span" w={8} h={8} bg="red.8" style={{ borderRadius: "50%" }} aria-hidden />}
            onClick={() => {
              // A check already running answers this press too.
              if (!healthStore.get().isChecking) void checkHealth();
            }}
          >
            {word}
          </Button>
        </Tooltip>
      )}
      <VisuallyHidden role="status" aria-live="polite" data-testid="api-status-live">
        {isOnline ? HEALTH_MESSAGES.online : `API offline: ${message}`}
      </VisuallyHidden>
    </Box>
  );
}
