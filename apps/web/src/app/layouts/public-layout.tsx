import { Box, Container, Group, Text } from "@mantine/core";
import { Suspense } from "react";
import { Outlet } from "react-router";
import { Logo } from "../../components/logo";
import { PageLoader } from "../../components/page-loader";

/** Sign-in, password reset and e-mail verification: a centred card under a slim header. */
export function PublicLayout() {
  return (
    <Box mih="100vh" bg="gray.0">
      <Group component="header" px="md" py="sm" gap="xs">
        <Logo />
        <Text fw={700} fz="lg">
          Tally
        </Text>
      </Group>
      <Container component="main" size={440} py="xl">
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </Container>
    </Box>
  );
}
