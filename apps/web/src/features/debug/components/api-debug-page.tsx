import { Badge, Button, Code, Container, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { useMemo } from "react";
import { GoBackButton } from "../../../components/go-back-button";
import { API_BASE, HEALTH_CHECK_URL } from "../../../lib/health";
import { type DiagnosticResult, useRunDiagnostics } from "../api/run-diagnostics";
import { diagnosticTargets } from "../lib/diagnostic-targets";
import { DiagnosticResultRow } from "./diagnostic-result-row";

/** API Debug page (spec "Other screens"): where the app talks to, and a test of each backend. */
export function ApiDebugPage() {
  const targets = useMemo(() => diagnosticTargets(), []);
  const diagnostics = useRunDiagnostics();
  const results: DiagnosticResult[] | undefined = diagnostics.data;
  return (
    <Container component="main" size="lg" py="xl">
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
          <Button onClick={() => diagnostics.mutate(targets)} loading={diagnostics.isPending}>
            Run API Diagnostics
          </Button>
          <GoBackButton variant="default" />
        </Group>
        <Paper withBorder p="md" data-testid="diagnostics-result">
          <Group justify="space-between" mb="sm">
            <Title order={2} fz="h3">
              Diagnostics Result
            </Title>
            {results ? (
              <Badge color={results.some((r) => r.outcome === "failed") ? "red.9" : "teal.9"} variant="outline">
                {results.filter((r) => r.outcome === "ok").length} passed ·{" "}
                {results.filter((r) => r.outcome === "failed").length} failed ·{" "}
                {results.filter((r) => r.outcome === "skipped").length} skipped
              </Badge>
            ) : null}
          </Group>
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Test</Table.Th>
                  <Table.Th>URL</Table.Th>
                  <Table.Th>Result</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Time</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {targets.map((target) => (
                  <DiagnosticResultRow
                    key={target.id}
                    target={target}
                    result={results?.find((r) => r.target.id === target.id)}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {!results ? (
            <Text size="sm" c="dimmed" mt="sm">
              Press Run API Diagnostics to test each backend.
            </Text>
          ) : null}
        </Paper>
      </Stack>
    </Container>
  );
}
