import { Button, Group } from "@mantine/core";
import { pageWindow } from "../lib/paging";

interface Props {
  page: number;
  pageCount: number;
  onChange: (page: number) => void;
  /** Names the list in the button labels, e.g. "active users". */
  label: string;
}

/** Previous, up to five page numbers around the current page, Next. */
export function PageButtons({ page, pageCount, onChange, label }: Props) {
  if (pageCount <= 1) return null;
  return (
    <Group component="nav" aria-label={`Pages of ${label}`} gap={4} wrap="wrap">
      <Button size="xs" variant="default" disabled={page <= 1} onClick={() => onChange(page - 1)}>
        Previous
      </Button>
      {pageWindow(page, pageCount).map((n) => (
        <Button
          key={n}
          size="xs"
          variant={n === page ? "filled" : "default"}
          aria-label={`Page ${n}`}
          aria-current={n === page ? "page" : undefined}
          onClick={() => onChange(n)}
        >
          {n}
        </Button>
      ))}
      <Button size="xs" variant="default" disabled={page >= pageCount} onClick={() => onChange(page + 1)}>
        Next
      </Button>
    </Group>
  );
}
