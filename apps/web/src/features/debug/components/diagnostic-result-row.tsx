import { Badge, Code, Table, Text } from "@mantine/core";
import type { DiagnosticResult } from "../api/run-diagnostics";
import type { DiagnosticTarget } from "../lib/diagnostic-targets";

const OUTCOME = {
  ok: { color: "teal", text: "OK" },
  failed: { color: "red", text: "Failed" },
  skipped: { color: "gray", text: "Skipped" },
} as const;

function bodyPreview(body: unknown): string | null {
  if (body === null || body === undefined || body === "") return null;
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

/** One test of the debug page: before a run only its URL (or why it will be skipped). */
export function DiagnosticResultRow({ target, result }: { target: DiagnosticTarget; result?: DiagnosticResult }) {
  const outcome = result ? OUTCOME[result.outcome] : null;
  const preview = result ? bodyPreview(result.body) : null;
  return (
    <Table.Tr data-testid={`diagnostic-${target.id}`}>
      <Table.Td>
        <Text size="sm" fw={500}>
          {target.label}
        </Text>
      </Table.Td>
      <Table.Td>
        {target.url ? (
          <Code>{target.url}</Code>
        ) : (
          <Text size="sm" c="dimmed">
            {target.skippedNote}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        {outcome ? (
          // Outlined in the darkest shade: the light variant's tinted background misses 4.5:1 at this size.
          <Badge color={`${outcome.color}.9`} variant="outline">
            {outcome.text}
          </Badge>
        ) : (
          "—"
        )}
        {result?.error ? (
          <Text size="xs" c="red.8" mt={4}>
            {result.error}
          </Text>
        ) : null}
        {preview ? (
          <Text size="xs" c="dimmed" mt={4} style={{ wordBreak: "break-all" }}>
            {preview}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>{result?.status ?? "—"}</Table.Td>
      <Table.Td style={{ whiteSpace: "nowrap" }}>
        {result?.ms !== null && result?.ms !== undefined ? `${result.ms} ms` : "—"}
      </Table.Td>
    </Table.Tr>
  );
}
