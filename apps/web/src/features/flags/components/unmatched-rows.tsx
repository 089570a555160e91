import type { FlagUnmatchedRow } from "@tally/contract";
import { Button, Stack, Table, Text, Title } from "@mantine/core";
import { useState } from "react";
import { groupUnmatched } from "../lib/verification-rows";

/** How many rows of one reason show before "Show all". */
const FIRST_ROWS = 20;

/** Every row no student of the cohort took, by reason: listed, never silently dropped (spec). */
export function UnmatchedRows({ rows }: { rows: FlagUnmatchedRow[] }) {
  if (rows.length === 0) return <Text size="sm">Every row of the three reports was matched.</Text>;
  return (
    <Stack gap="sm" component="section" aria-labelledby="unmatched-heading">
      <Title order={3} id="unmatched-heading">
        Unmatched rows ({rows.length})
      </Title>
      <Text size="sm">These rows are not imported.</Text>
      {groupUnmatched(rows).map((group) => (
        <UnmatchedGroup key={group.reason} reason={group.reason} rows={group.rows} />
      ))}
    </Stack>
  );
}

function UnmatchedGroup({ reason, rows }: { reason: string; rows: FlagUnmatchedRow[] }) {
  const [all, setAll] = useState(false);
  const shown = all ? rows : rows.slice(0, FIRST_ROWS);
  const caption = `${capitalised(reason)} (${rows.length})`;
  return (
    <Stack gap={4}>
      <Title order={4} size="h5">
        {caption}
      </Title>
      <Table.ScrollContainer minWidth={560}>
        <Table aria-label={caption} verticalSpacing={4} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>File</Table.Th>
              <Table.Th>Row</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>E-mail</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((row) => (
              <Table.Tr key={`${row.file}:${row.row}`}>
                <Table.Td>{row.file}</Table.Td>
                <Table.Td>{row.row}</Table.Td>
                {/* A CRM row may give only its Benefit Assignment ID, which its reason names. */}
                <Table.Td>{row.name || "—"}</Table.Td>
                <Table.Td>{row.email ?? "—"}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.length > FIRST_ROWS ? (
        <Button size="xs" variant="subtle" w="fit-content" onClick={() => setAll(!all)}>
          {all ? "Show fewer" : `Show all ${rows.length}`}
        </Button>
      ) : null}
    </Stack>
  );
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
