import { Container, Stack, Text, Title } from "@mantine/core";
import { MESSAGES } from "@tally/contract";
import { GoBackButton } from "./go-back-button";

export function NotFoundPage() {
  return (
    <Container component="main" size="sm" py="xl">
      <Stack align="center" gap="md" mt="xl">
        <Text fz={64} fw={700} aria-hidden="true">
          404
        </Text>
        <Title order={1}>{MESSAGES.pageNotFound}</Title>
        <Text>The page you are looking for does not exist or has been moved.</Text>
        <GoBackButton />
      </Stack>
    </Container>
  );
}
