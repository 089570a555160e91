import { Alert, Button, Code, Container, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { GoBackButton } from "../../../components/go-back-button";
import { API_BASE, HEALTH_CHECK_URL } from "../../../lib/health";
import { useHealthCheckDiagnostics } from "../api/get-health-check";

/** Static API Debug page: shows where the app talks to and checks the health endpoint. */
export function ApiDebugPage() {
  const diagnostics = useHealthCheckDiagnostics();
  const result = diagnostics.data;
  return (
    <Container component="main" size="md" py="xl">
      <Stack gap="lg">
        <Title order={1}>API Debug</Title>
        <Paper withBorder p="md">
          <Title order={2} fz="h3" mb="sm">
            API Configuration
          </Title>
          <Table>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row">API base URL</Table.Th>
                <Table.Td>
                  <Code>{API_BASE}</Code>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">Health check</Table.Th>
                <Table.Td>
                  <Code>{HEALTH_CHECK_URL}</Code>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">Page origin</Table.Th>
                <Table.Td>
                  <Code>{window.location.origin}</Code>
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Paper>
        <Group>
          <Button onClick={() => diagnostics.mutate()} loading={diagnostics.isPending}>
            Run API Diagnostics
          </Button>
          <GoBackButton variant="default" />
        </Group>
        {result ? (
          <Paper withBorder p="md" data-testid="diagnostics-result">
            <Title order={2} fz="h3" mb="sm">
              Diagnostics Result
            </Title>
            <Alert color={result.ok ? "green" : "red"} role="status" mb="sm">
              {result.ok
                ? `Health check succeeded (HTTP ${result.status}).`
                : `Health check failed: ${result.error ?? "unknown error"}${result.status ? ` (HTTP ${result.status})` : ""}.`}
            </Alert>
            {result.body !== null && result.body !== undefined ? (
              <Code block>{JSON.stringify(result.body, null, 2)}</Code>
            ) : (
              <Text size="sm">No response body.</Text>
            )}
          </Paper>
        ) : null}
      </Stack>
    </Container>
  );
}
