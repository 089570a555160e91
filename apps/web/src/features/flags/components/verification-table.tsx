import { FLAG_MATCH_LABELS, type FlagVerificationRow } from "@tally/contract";
import { Badge, Checkbox, Group, Switch, Table, Text, UnstyledButton } from "@mantine/core";
import { useState } from "react";
import { PageButtons } from "../../../components/page-buttons";
import { ReportRowsUsed } from "../../../components/report-rows-used";
import { pageOf } from "../../../lib/paging";
import { type FlagSort, nextSort, visibleRows } from "../lib/verification-rows";

/** A week of 5,000 students stays quick to render and to read, a page at a time. */
export const VERIFICATION_PAGE_SIZE = 50;

interface Props {
  rows: FlagVerificationRow[];
  selected: ReadonlySet<number>;
  onSelect: (selected: ReadonlySet<number>) => void;
  disabled: boolean;
}

const SORT_LABEL: Record<FlagSort, string> = { none: "", desc: " (most first)", asc: " (fewest first)" };
/** Names and ids stay on one line; the flags column takes the wrapping. */
const NO_WRAP = { whiteSpace: "nowrap" } as const;
const ARIA_SORT = { none: "none", desc: "descending", asc: "ascending" } as const;
const FLAG_LIST = { listStyle: "none", margin: 0, padding: 0 } as const;

/** One chip per flag, so each reads on its own; "No flags" (spec) when there are none. */
function FlagChips({ flags }: { flags: readonly string[] }) {
  if (flags.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No flags
      </Text>
    );
  }
  return (
    <Group component="ul" gap={6} style={FLAG_LIST} aria-label={`${flags.length} flag${flags.length === 1 ? "" : "s"}`}>
      {flags.map((flag, i) => (
        <Badge key={i} component="li" variant="light" color="orange" radius="sm" tt="none" fw={500} size="lg" styles={{ label: { whiteSpace: "normal" } }}>
          {flag}
        </Badge>
      ))}
    </Group>
  );
}

export function VerificationTable({ rows, selected, onSelect, disabled }: Props) {
  const [onlyFlagged, setOnlyFlagged] = useState(false);
  const [sort, setSort] = useState<FlagSort>("none");
  const [page, setPage] = useState(1);
  const shown = pageOf(visibleRows(rows, onlyFlagged, sort), page, VERIFICATION_PAGE_SIZE);

  const all = selected.size === rows.length;
  const toggleAll = () => onSelect(all ? new Set() : new Set(rows.map((_, i) => i)));
  const toggle = (index: number) => {
    const next = new Set(selected);
    if (next.has(index)) next.delete(index);
    else next.add(index);
    onSelect(next);
  };

  return (
    <>
      <Group justify="flex-end" gap="sm">
        <Switch
          label="Only flagged"
          checked={onlyFlagged}
          onChange={(event) => {
            setOnlyFlagged(event.currentTarget.checked);
            setPage(1);
          }}
        />
      </Group>
      <Table.ScrollContainer minWidth={720}>
        <Table striped highlightOnHover aria-label="Calculated flags" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={48}>
                <Checkbox
                  aria-label="Check all students"
                  checked={all}
                  indeterminate={selected.size > 0 && !all}
                  onChange={toggleAll}
                  disabled={disabled}
                />
              </Table.Th>
              <Table.Th style={NO_WRAP}>Name</Table.Th>
              <Table.Th>Benefit Assignment ID</Table.Th>
              <Table.Th aria-sort={ARIA_SORT[sort]}>
                <UnstyledButton
                  onClick={() => {
                    setSort(nextSort(sort));
                    setPage(1);
                  }}
                  fw={700}
                  fz="sm"
                >
                  Calculated flags{SORT_LABEL[sort]} {sort === "desc" ? "▼" : sort === "asc" ? "▲" : "↕"}
                </UnstyledButton>
              </Table.Th>
              <Table.Th style={NO_WRAP}>Matched by</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.items.map((index) => {
              const row = rows[index]!;
              return (
                <Table.Tr key={index}>
                  <Table.Td>
                    <Checkbox
                      aria-label={`Import ${row.name}`}
                      checked={selected.has(index)}
                      onChange={() => toggle(index)}
                      disabled={disabled}
                    />
                  </Table.Td>
                  <Table.Td style={NO_WRAP}>
                    {row.name}
                    <ReportRowsUsed choices={row.rowsUsed} />
                  </Table.Td>
                  <Table.Td style={NO_WRAP}>{row.benefit_assignment_id}</Table.Td>
                  <Table.Td>
                    <FlagChips flags={row.calculated_flags} />
                  </Table.Td>
                  <Table.Td style={NO_WRAP}>{FLAG_MATCH_LABELS[row.matchedBy]}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {shown.total === 0 ? <Text size="sm">No student has a flag this week.</Text> : null}
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          {shown.total > 0 ? `Showing ${shown.from}–${shown.to} of ${shown.total}` : null}
        </Text>
        <PageButtons page={shown.page} pageCount={shown.pageCount} onChange={setPage} label="calculated flags" />
      </Group>
    </>
  );
}
