import { Box, Container, Group, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { ConnectionStatus } from "./connection-status";
import { Logo } from "./logo";

/** A page of its own under a slim header with the logo: the public pages and the connection error. */
export function SlimPage({ width, children }: { width: number; children: ReactNode }) {
  return (
    <Box mih="100vh" bg="gray.0">
      <Group component="header" px="md" py="sm" gap="xs" justify="space-between" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <Logo />
          <Text fw={700} fz="lg">
            Tally
          </Text>
        </Group>
        {/* The pages that stay while the API is away (and the page saying so) all have this header. */}
        <ConnectionStatus />
      </Group>
      <Container component="main" size={width} py="xl">
        {children}
      </Container>
    </Box>
  );
}
