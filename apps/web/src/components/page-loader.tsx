import { Center, Loader, VisuallyHidden } from "@mantine/core";

export function PageLoader({ label = "Loading..." }: { label?: string }) {
  return (
    <Center role="status" py="xl" mih={200}>
      <Loader />
      <VisuallyHidden>{label}</VisuallyHidden>
    </Center>
  );
}
