import { Alert, Button, Group, Loader, ScrollArea, Stack, Switch, Table, Text, TextInput } from "@mantine/core";
import { type FeatureSettings, type FeatureToggles, type SaveFeatureSettingsRequest, type SchoolItem, schoolToggles } from "@tally/contract";
import { useId, useMemo, useState } from "react";
import { BannerAlert } from "../../../components/banner-alert";
import { useSchoolOptions } from "../../../lib/api/get-schools";
import { useBanner } from "../../../lib/use-banner";
import { useAdminFeatureSettings } from "../api/get-admin-feature-settings";
import { useSaveFeatureSettings } from "../api/save-feature-settings";
import { SettingsSection } from "./settings-section";

export const FEATURE_TEXTS = {
  saved: "Feature settings saved successfully.",
  loadFailed: "Failed to load feature settings...",
  saveFailed: "Failed to save settings. Please try again.",
} as const;

/** Spec section "School Feature Settings". */
export function FeatureSettingsSection() {
  const settings = useAdminFeatureSettings();
  // Here rather than in the form: a save refetches the settings, which restarts the form.
  const save = useSaveFeatureSettings();
  const { banner, show, clear } = useBanner();
  const onSave = (body: SaveFeatureSettingsRequest) => {
    clear();
    save.mutate(body, {
      onSuccess: () => show("success", FEATURE_TEXTS.saved),
      onError: () => show("error", FEATURE_TEXTS.saveFailed),
    });
  };
  return (
    <SettingsSection title="School Feature Settings">
      {settings.isPending ? (
        <Group gap="xs" role="status">
          <Loader size="xs" aria-hidden="true" />
          <Text size="sm">Loading feature settings...</Text>
        </Group>
      ) : settings.isError ? (
        <Stack gap="xs" align="flex-start">
          <Alert color="red" role="alert">
            {FEATURE_TEXTS.loadFailed}
          </Alert>
          <Button variant="default" onClick={() => void settings.refetch()} loading={settings.isFetching}>
            Retry
          </Button>
        </Stack>
      ) : (
        // Keyed by the stored value, so a save (or another admin's, on refetch) restarts the form.
        <FeatureSettingsForm key={JSON.stringify(settings.data)} saved={settings.data} saving={save.isPending} onSave={onSave} />
      )}
      <BannerAlert banner={banner} onClose={clear} />
    </SettingsSection>
  );
}

interface FormProps {
  saved: FeatureSettings;
  saving: boolean;
  onSave: (body: SaveFeatureSettingsRequest) => void;
}

function FeatureSettingsForm({ saved, saving, onSave }: FormProps) {
  const [draft, setDraft] = useState<FeatureSettings>(saved);
  const applyHelpId = useId();
  const dirty = JSON.stringify(draft) !== JSON.stringify(saved);

  const setGlobal = (patch: Partial<FeatureSettings>) => setDraft((d) => ({ ...d, ...patch }));
  // Changing one switch of a school gives it a full row, so it no longer follows the global values.
  const setSchool = (schoolId: number, patch: Partial<FeatureToggles>) =>
    setDraft((d) => ({ ...d, schoolSettings: { ...d.schoolSettings, [String(schoolId)]: { ...schoolToggles(d, schoolId), ...patch } } }));

  // Stored rows may leave a toggle out (then it follows the global value); the save sends both.
  const submit = () =>
    onSave({
      enableExport: draft.enableExport,
      enableStudentEditing: draft.enableStudentEditing,
      applyToAllSchools: draft.applyToAllSchools,
      schoolSettings: Object.fromEntries(Object.keys(draft.schoolSettings).map((id) => [id, schoolToggles(draft, Number(id))])),
    });

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Export and student editing for school and district users. Admins can always do both.
      </Text>
      <Switch
        label="Enable export"
        checked={draft.enableExport}
        onChange={(e) => setGlobal({ enableExport: e.currentTarget.checked })}
      />
      <Switch
        label="Enable student editing"
        checked={draft.enableStudentEditing}
        onChange={(e) => setGlobal({ enableStudentEditing: e.currentTarget.checked })}
      />
      <Stack gap={4}>
        <Switch
          label="Apply to all schools"
          aria-describedby={applyHelpId}
          checked={draft.applyToAllSchools}
          onChange={(e) => setGlobal({ applyToAllSchools: e.currentTarget.checked })}
        />
        {/* Outside the label, so a screen reader names the switch by its label alone. */}
        <Text id={applyHelpId} size="xs" c="dimmed">
          On: the values above apply to every school. Off: each school has its own, starting from the values above.
        </Text>
      </Stack>
      {draft.applyToAllSchools ? null : <SchoolTogglesTable draft={draft} onChange={setSchool} />}
      <Group gap="sm">
        <Button onClick={submit} loading={saving}>
          Save
        </Button>
        {dirty ? (
          <>
            <Button variant="default" onClick={() => setDraft(saved)} disabled={saving}>
              Discard changes
            </Button>
            <Text size="sm" c="orange.8" data-testid="feature-settings-unsaved">
              Unsaved changes
            </Text>
          </>
        ) : null}
      </Group>
    </Stack>
  );
}

function SchoolTogglesTable({
  draft,
  onChange,
}: {
  draft: FeatureSettings;
  onChange: (schoolId: number, patch: Partial<FeatureToggles>) => void;
}) {
  const schools = useSchoolOptions();
  const [search, setSearch] = useState("");
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (schools.data ?? []).filter((s: SchoolItem) => s.name.toLowerCase().includes(needle));
  }, [schools.data, search]);

  if (schools.isPending) {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" aria-hidden="true" />
        <Text size="sm">Loading schools...</Text>
      </Group>
    );
  }
  if (schools.isError) {
    return (
      <Alert color="red" role="alert">
        Failed to load schools. Please try again.
      </Alert>
    );
  }
  return (
    <Stack gap="xs">
      <TextInput
        label="Search schools"
        placeholder="School name"
        type="search"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
      />
      <Text size="sm" c="dimmed" aria-live="polite">
        {shown.length === schools.data.length ? `${shown.length} schools` : `${shown.length} of ${schools.data.length} schools`}
      </Text>
      <ScrollArea.Autosize mah={420} type="auto" offsetScrollbars>
        <Table striped highlightOnHover stickyHeader aria-label="Feature settings per school">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>School</Table.Th>
              <Table.Th w={90}>Export</Table.Th>
              <Table.Th w={90}>Student editing</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((school) => {
              const toggles = schoolToggles(draft, school.id);
              return (
                <Table.Tr key={school.id}>
                  <Table.Td style={{ overflowWrap: "anywhere" }}>{school.name}</Table.Td>
                  <Table.Td>
                    <Switch
                      aria-label={`${school.name} export`}
                      checked={toggles.enableExport}
                      onChange={(e) => onChange(school.id, { enableExport: e.currentTarget.checked })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      aria-label={`${school.name} student editing`}
                      checked={toggles.enableStudentEditing}
                      onChange={(e) => onChange(school.id, { enableStudentEditing: e.currentTarget.checked })}
                    />
                  </Table.Td>
                </Table.Tr>
              );
            })}
            {shown.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={3}>
                  <Text size="sm" c="dimmed">
                    No school matches the search.
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Stack>
  );
}
