import { Alert, Button, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { isAdminRole } from "@tally/contract";
import { useEffect } from "react";
import { useLocation, useSearchParams } from "react-router";
import { useCurrentUser } from "../../../lib/auth-store";
import { useCohorts } from "../../../lib/api/get-cohorts";
import { AlertRulesSection } from "./alert-rules-section";
import { CohortManagementSection } from "./cohort-management-section";
import { DemoSettingsSection } from "./demo-settings-section";
import { FeatureSettingsSection } from "./feature-settings-section";
import { PrivacySettingsSection } from "./privacy-settings-section";
import { SystemSettingsSection } from "./system-settings-section";
import { VisibilitySection } from "./visibility-section";

/** The block the admin navigation's "Schools & cohorts" link points at. */
export const SCHOOLS_AND_COHORTS_ID = "schools-and-cohorts";

/** Brings the block a link's #hash names into view once the page has drawn it (the router does not). */
function ScrollToHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    target?.scrollIntoView?.({ block: "start" });
    target?.focus({ preventScroll: true });
  }, [hash]);
  return null;
}

/** The cohorts section, its import open while the address asks for it (?import=1, "Import week"). */
function ImportFromAddress() {
  const [params, setParams] = useSearchParams();
  const closed = () =>
    setParams(
      (p) => {
        p.delete("import");
        return p;
      },
      { replace: true },
    );
  return <CohortManagementSection importRequested={params.get("import") === "1"} onImportClosed={closed} />;
}

/**
 * Spec section 2 "Admin Settings". Each section is its own component. Users moved to /users
 * (issue 29: one user screen); schools and cohorts come first, under one anchor.
 */
export function AdminSettingsPage() {
  const viewer = useCurrentUser();
  const allowed = viewer !== null && isAdminRole(viewer.role);
  // The page waits for the cohorts every section refers to (cached for the sections).
  const cohorts = useCohorts(null, allowed);

  if (!allowed) {
    return <Text role="alert">You do not have permission to access admin settings</Text>;
  }
  if (cohorts.isPending) {
    return (
      <Stack gap="md">
        <Title order={1}>Admin Settings</Title>
        <Group justify="center" py="xl" role="status">
          <Loader size="sm" aria-hidden="true" />
          <Text>Loading settings...</Text>
        </Group>
      </Stack>
    );
  }
  if (cohorts.isError) {
    return (
      <Stack gap="sm" align="flex-start">
        <Title order={1}>Admin Settings</Title>
        <Alert color="red" role="alert">
          Failed to load settings data. Please try again.
        </Alert>
        <Button onClick={() => void cohorts.refetch()} loading={cohorts.isFetching}>
          Retry
        </Button>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Title order={1}>Admin Settings</Title>
      <ScrollToHash />
      <Stack component="section" gap="md" id={SCHOOLS_AND_COHORTS_ID} tabIndex={-1} aria-label="Schools and cohorts" style={{ scrollMarginTop: 16, outline: "none" }}>
        <ImportFromAddress />
        <SystemSettingsSection />
      </Stack>
      <VisibilitySection />
      <DemoSettingsSection />
      <FeatureSettingsSection />
      <PrivacySettingsSection />
      <AlertRulesSection />
    </Stack>
  );
}
