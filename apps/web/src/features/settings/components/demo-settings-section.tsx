import { Alert, Anchor, Button, Group, Loader, Stack, Switch, Text } from "@mantine/core";
import type { DemoToggles } from "@tally/contract";
import { useState } from "react";
import { Link } from "react-router";
import { BannerAlert } from "../../../components/banner-alert";
import { useBanner } from "../../../lib/use-banner";
import { type DemoSettings, demoDashboardPath, useDemoSettings } from "../../../lib/api/get-demo-settings";
import { useSaveDemoSettings } from "../api/save-demo-settings";
import { SettingsSection } from "./settings-section";

export const DEMO_TEXTS = {
  saved: "Demo settings saved successfully.",
  loadFailed: "Failed to load demo settings...",
  saveFailed: "Failed to save settings. Please try again.",
} as const;

const togglesOf = (d: DemoSettings): DemoToggles => ({
  isDemoVisible: d.isDemoVisible,
  adminAccess: d.adminAccess,
  schoolAccess: d.schoolAccess,
});

interface FormProps {
  stored: DemoSettings;
  saving: boolean;
  onSave: (toggles: DemoToggles) => void;
}

function DemoForm({ stored, saving, onSave }: FormProps) {
  const [draft, setDraft] = useState<DemoToggles>(() => togglesOf(stored));
  const set = (key: keyof DemoToggles) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const value = e.currentTarget.checked;
    setDraft((d) => ({ ...d, [key]: value }));
  };
  const changed = JSON.stringify(draft) !== JSON.stringify(togglesOf(stored));
  // The access toggles mean nothing while the demo is closed to everyone (spec section 4).
  const accessDisabled = !draft.isDemoVisible;

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        The demo school (school {stored.schoolId}, cohort {stored.cohortId}) is never counted in admin lists and
        filters.
      </Text>
      <Switch
        label="Demo school visible"
        description="Off: the demo school and cohort are hidden from everyone and their users cannot sign in."
        checked={draft.isDemoVisible}
        onChange={set("isDemoVisible")}
      />
      <Switch
        label="Admin access to the demo dashboard"
        description="Admins and super admins can open the demo school's dashboard to show the product."
        checked={draft.adminAccess}
        disabled={accessDisabled}
        onChange={set("adminAccess")}
      />
      <Switch
        label="School access to the demo dashboard"
        description='School and district users get a read-only "Demo school" link, for training.'
        checked={draft.schoolAccess}
        disabled={accessDisabled}
        onChange={set("schoolAccess")}
      />
      <Group justify="space-between" gap="sm">
        {stored.isDemoVisible && stored.adminAccess ? (
          <Anchor component={Link} to={demoDashboardPath(stored)} size="sm">
            Open the demo school dashboard
          </Anchor>
        ) : (
          <span />
        )}
        <Button onClick={() => onSave(draft)} loading={saving} disabled={!changed && !saving}>
          Save Demo Settings
        </Button>
      </Group>
    </Stack>
  );
}

/** Spec section "Demo school settings": the three toggles, saved together. */
export function DemoSettingsSection() {
  const demo = useDemoSettings();
  // Here, not in the form: the form starts again from the saved values (it is keyed by them),
  // while the save's outcome and its message outlive it.
  const { banner, show, clear } = useBanner();
  const save = useSaveDemoSettings();
  const onSave = (toggles: DemoToggles) =>
    save.mutate(toggles, {
      onSuccess: () => show("success", DEMO_TEXTS.saved),
      onError: () => show("error", DEMO_TEXTS.saveFailed),
    });
  return (
    <SettingsSection title="Demo school settings">
      <BannerAlert banner={banner} onClose={clear} />
      {demo.isPending ? (
        <Group gap="xs" role="status">
          <Loader size="xs" aria-hidden="true" />
          <Text size="sm">Loading demo settings...</Text>
        </Group>
      ) : demo.isError ? (
        <Alert color="red" role="alert">
          <Group justify="space-between" gap="sm">
            <span>{DEMO_TEXTS.loadFailed}</span>
            <Button size="compact-sm" variant="default" onClick={() => void demo.refetch()} loading={demo.isFetching}>
              Retry
            </Button>
          </Group>
        </Alert>
      ) : (
        // Keyed by what is stored, so a save (or another admin's) starts the form from the server's values.
        <DemoForm key={JSON.stringify(demo.data)} stored={demo.data} saving={save.isPending} onSave={onSave} />
      )}
    </SettingsSection>
  );
}
