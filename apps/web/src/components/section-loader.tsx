import { Group, Loader, type MantineSize } from "@mantine/core";

interface Props {
  /** What is loading, for screen readers: "Loading users". */
  label: string;
  py?: MantineSize;
  size?: MantineSize;
}

/** A centred spinner where a list, table or panel will appear. */
export function SectionLoader({ label, py = "lg", size = "sm" }: Props) {
  return (
    <Group justify="center" py={py}>
      <Loader size={size} aria-label={label} />
    </Group>
  );
}
