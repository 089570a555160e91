import { Button, Container, Group, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import { useCurrentUser } from "../lib/auth-store";
import { homePath } from "../lib/route-access";
import { GoBackButton } from "./go-back-button";

/** Target of a failed role or permission check. */
export function UnauthorizedPage() {
  const user = useCurrentUser();
  return (
    <Container component="main" size="sm" py="xl">
      <Stack align="center" gap="md" mt="xl">
        <Title order={1}>Access Denied</Title>
        <Text ta="center">You do not have permission to view this page.</Text>
        <Group>
          {user ? (
            <Button component={Link} to={homePath(user)}>
              Go to My Dashboard
            </Button>
          ) : (
            <Button component={Link} to="/login">
              Go to Login
            </Button>
          )}
          <GoBackButton variant="default" />
        </Group>
      </Stack>
    </Container>
  );
}
