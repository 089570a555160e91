import { FLAG_UPLOAD_MESSAGES } from "@tally/contract";
import { Stack, Text, Title } from "@mantine/core";

/** The spec's refusal for anyone but a super admin (the route lets admins reach the page to see it). */
export function FlagAccessDenied() {
  return (
    <Stack align="center" gap="md" mt="xl">
      <Title order={1}>{FLAG_UPLOAD_MESSAGES.accessDeniedTitle}</Title>
      <Text ta="center">{FLAG_UPLOAD_MESSAGES.accessDenied}</Text>
    </Stack>
  );
}
