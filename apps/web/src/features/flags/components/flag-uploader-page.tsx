import { Stack, Text, Title } from "@mantine/core";

export function FlagUploaderPage() {
  return (
    <Stack gap="xs">
      <Title order={1}>Flag Uploader</Title>
      <Text>Upload and process Practera and Salesforce reports to generate student flags.</Text>
    </Stack>
  );
}
