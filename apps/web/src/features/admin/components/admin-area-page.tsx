import { Anchor, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";

const TOOLS = [
  { to: "/admin/settings", name: "Admin Settings", text: "Schools, cohorts, visibility, demo and feature settings, weekly imports." },
  { to: "/users", name: "User Management", text: "Create, edit, deactivate and reactivate users; school access; password resets." },
  { to: "/admin/flag-uploader", name: "Flag Uploader", text: "Upload the weekly CSV exports, verify the matches and import the flags." },
  { to: "/admin/audit", name: "Audit Log", text: "Who changed what and when, from which address; filter and export as CSV." },
  { to: "/dashboard", name: "Dashboard", text: "Attendance for every school, cohort and team." },
  { to: "/debug", name: "API Debug", text: "Test the API backends and the cross-origin endpoint." },
  // Served by the server, not the web app: the browser loads it as a page of its own.
  { to: "/api/docs", name: "API Reference", text: "Every API route with its parameters, replies, errors and sign-in.", server: true },
] as const satisfies ReadonlyArray<{ to: string; name: string; text: string; server?: boolean }>;

/** /admin/* for super_admin (spec section 2): the "Admin Area" landing page with the admin tools. */
export function AdminAreaPage() {
  return (
    <Stack gap="lg">
      <Title order={1}>Admin Area</Title>
      <Text c="dimmed">Tools for super admins.</Text>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }}>
        {TOOLS.map((tool) => (
          <Paper key={tool.to} component="li" withBorder p="md" radius="md">
            <Anchor component={Link} to={tool.to} reloadDocument={"server" in tool} fw={600}>
              {tool.name}
            </Anchor>
            <Text size="sm" c="dimmed" mt={4}>
              {tool.text}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
