import { Table, type TableProps } from "@mantine/core";
import type { ReactNode } from "react";

/** A column heading; numbers are right-aligned under theirs. */
export type DataColumn = string | { label: string; align: "right" };

interface Props extends Omit<TableProps, "children"> {
  columns: readonly DataColumn[];
  /** Narrower than this, the table scrolls sideways. */
  minWidth: number;
  /**
   * Names the scrolling box and makes it a focusable region, so a keyboard can scroll it:
   * for tables wide enough to scroll on a laptop, not only on a phone.
   */
  scrollLabel?: string;
  /** The rows. */
  children: ReactNode;
}

/** A table of records under its column headings, scrolling sideways when the screen is narrow. */
export function DataTable({ columns, minWidth, scrollLabel, children, ...table }: Props) {
  const region = scrollLabel ? { type: "native" as const, tabIndex: 0, role: "region", "aria-label": scrollLabel } : {};
  return (
    <Table.ScrollContainer minWidth={minWidth} {...region}>
      <Table {...table}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) =>
              typeof column === "string" ? (
                <Table.Th key={column} scope="col">
                  {column}
                </Table.Th>
              ) : (
                <Table.Th key={column.label} scope="col" ta={column.align}>
                  {column.label}
                </Table.Th>
              ),
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
