import { Alert, Button, CopyButton, Group, Stack, Table, Text } from "@mantine/core";

interface Props {
  username: string;
  email: string;
  password: string;
  onContinue: () => void;
}

/** Shown once after creation: the only time the password can be read. */
export function CreatedUserPanel({ username, email, password, onContinue }: Props) {
  return (
    <Stack gap="sm">
      <Alert color="green" role="status">
        User created successfully
      </Alert>
      <Text size="sm">Save this password now and pass it on securely; it will not be shown again.</Text>
      <Table withTableBorder variant="vertical" data-testid="created-user">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th scope="row" w={120}>
              Username
            </Table.Th>
            <Table.Td>{username}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">Email</Table.Th>
            <Table.Td style={{ wordBreak: "break-all" }}>{email}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">Password</Table.Th>
            <Table.Td ff="monospace" data-testid="created-password">
              {password}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Group justify="flex-end" gap="sm">
        <CopyButton value={password}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy}>
              {copied ? "Copied" : "Copy Password"}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onContinue}>Continue</Button>
      </Group>
    </Stack>
  );
}
