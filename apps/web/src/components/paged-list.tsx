import { Group, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { pageBounds } from "../lib/paging";
import { EmptyState } from "./empty-state";
import { PageButtons } from "./page-buttons";
import { SectionLoader } from "./section-loader";

interface Props {
  /** The filters make no sense (an end date before the start): nothing is asked, nothing shown. */
  hidden: boolean;
  pending: boolean;
  /** The page failed to load: its alert is the caller's, above the list. */
  failed: boolean;
  /** Rows on this page, and matching the filters over all pages. */
  rowCount: number;
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  loadingLabel: string;
  emptyMessage: string;
  /** Names the list in the page buttons' labels. */
  pagesLabel: string;
  /** The page's rows, as a table. */
  children: ReactNode;
}

/** A filtered list paged on the server: a spinner, the empty text or the rows, then "Showing 1-10 of 42" and the pages. */
export function PagedList({ hidden, pending, failed, rowCount, total, page, pageSize, onPageChange, loadingLabel, emptyMessage, pagesLabel, children }: Props) {
  if (hidden) return null;
  const { pageCount, from, to } = pageBounds(page, pageSize, total);
  return (
    <>
      {pending ? (
        <SectionLoader label={loadingLabel} />
      ) : rowCount === 0 && !failed ? (
        <EmptyState message={emptyMessage} />
      ) : rowCount > 0 ? (
        children
      ) : null}
      {total > 0 ? (
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="sm">
            Showing {from}-{to} of {total}
          </Text>
          <PageButtons page={page} pageCount={pageCount} onChange={onPageChange} label={pagesLabel} />
        </Group>
      ) : null}
    </>
  );
}
