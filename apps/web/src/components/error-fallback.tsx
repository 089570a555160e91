import { Button, Container, Stack, Text, Title } from "@mantine/core";
import { MESSAGES } from "@tally/contract";

/** Full-page render failure view (spec section 2, "Error fallback"). */
export function ErrorFallback() {
  return (
    <Container component="main" size="sm" py="xl">
      <Stack align="center" gap="md" mt="xl">
        <Title order={1}>{MESSAGES.errorBoundaryTitle}</Title>
        <Text>{MESSAGES.errorBoundaryText}</Text>
        <Button onClick={() => window.location.reload()}>Refresh Page</Button>
      </Stack>
    </Container>
  );
}
