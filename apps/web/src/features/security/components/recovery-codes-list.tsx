import { Alert, Button, Code, CopyButton, SimpleGrid, Stack, Text } from "@mantine/core";

/** The recovery codes, shown this once: the server keeps only their hashes. */
export function RecoveryCodesList({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Stack gap="sm" data-testid="recovery-codes">
      <Alert color="yellow" title="Save your recovery codes now">
        Each code signs you in once if you lose your phone. They are shown only this once: print them or keep
        them in a password manager.
      </Alert>
      <SimpleGrid cols={2} spacing="xs">
        {codes.map((code) => (
          <Code key={code} fz="md" ta="center" data-testid="recovery-code">
            {code}
          </Code>
        ))}
      </SimpleGrid>
      <CopyButton value={codes.join("\n")}>
        {({ copied, copy }) => (
          <Button variant="default" onClick={copy}>
            {copied ? "Copied" : "Copy the codes"}
          </Button>
        )}
      </CopyButton>
      <Text size="sm" c="dimmed">
        You can make new codes at any time; the old ones then stop working.
      </Text>
      <Button onClick={onDone}>I have saved my codes</Button>
    </Stack>
  );
}
