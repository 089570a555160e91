import { Alert, Anchor, Button, Group, List, Paper, Stack, Text, Title } from "@mantine/core";
import { useNavigate } from "react-router";
import { SlimPage } from "../../../components/slim-page";
import { lastSyncTime, useHealth } from "../../../lib/health";
import { hardNavigation } from "../../../lib/hard-navigation";
import { logoutNow } from "../../../lib/logout";
import { useSupportEmail } from "../api/get-public-config";

function formatSyncTime(iso: string | null): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date.toLocaleString();
}

/** Spec "Other screens": shown instead of the app while the API cannot be reached. */
export function ServerConnectionErrorPage() {
  const { error } = useHealth();
  const navigate = useNavigate();
  const supportEmail = useSupportEmail();
  const lastSync = formatSyncTime(lastSyncTime());

  // Signed in, /login would send the user straight back here; they asked to start over.
  const returnToLogin = () => {
    logoutNow();
    void navigate("/login", { replace: true });
  };

  return (
    <SlimPage width={640}>
      <Paper withBorder shadow="sm" p="xl" radius="md">
        <Stack gap="md">
          <Title order={1}>Server Connection Error</Title>
          {error ? (
            <Alert color="red" variant="light">
              {error}
            </Alert>
          ) : null}
          <Text>We are unable to connect to the server right now. This may be caused by:</Text>
          <List spacing={4}>
            <List.Item>Server maintenance</List.Item>
            <List.Item>Network connection issues</List.Item>
          </List>
          <Text data-testid="last-synchronized">
            {lastSync ? (
              <>
                <Text span fw={600}>
                  Last synchronized:
                </Text>{" "}
                {lastSync}
              </>
            ) : (
              "No recent data available"
            )}
          </Text>
          <Group>
            <Button onClick={() => hardNavigation.reload()}>Try Again</Button>
            <Button variant="default" onClick={returnToLogin}>
              Return to Login
            </Button>
          </Group>
          <Text size="sm" c="dimmed" data-testid="support-contact">
            {supportEmail ? (
              <>
                If the problem persists, please contact support at{" "}
                <Anchor href={`mailto:${supportEmail}`} underline="always">{supportEmail}</Anchor>.
              </>
            ) : (
              "If the problem persists, please contact your system administrator."
            )}
          </Text>
        </Stack>
      </Paper>
    </SlimPage>
  );
}
