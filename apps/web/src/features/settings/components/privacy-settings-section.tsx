import { Alert, Button, Group, Loader, NumberInput, Stack, Switch, Text } from "@mantine/core";
import { type ErasureCounts, type PrivacySettings, RETENTION_SUGGESTED_YEARS } from "@tally/contract";
import { useState } from "react";
import { BannerAlert } from "../../../components/banner-alert";
import { useBanner } from "../../../lib/use-banner";
import { usePrivacySettings } from "../api/get-privacy-settings";
import { useSavePrivacySettings } from "../api/save-privacy-settings";
import { RetentionPreview } from "./retention-preview";
import { RunRetentionButton } from "./run-retention-button";
import { SettingsSection } from "./settings-section";

export const PRIVACY_TEXTS = {
  saved: "Privacy settings saved successfully.",
  loadFailed: "Failed to load privacy settings...",
  saveFailed: "Failed to save settings. Please try again.",
  runFailed: "Retention did not run. Please try again.",
  ran: (c: ErasureCounts) => `Retention removed ${c.students} ${c.students === 1 ? "student" : "students"}.`,
} as const;

interface FormProps {
  stored: PrivacySettings;
  saving: boolean;
  onSave: (value: PrivacySettings) => void;
  onRan: (counts: ErasureCounts) => void;
  onRunFailed: () => void;
}

// A number field's value: a whole number in range, or null while it is empty or half typed.
const wholeOrNull = (v: string | number, min: number, max: number) => (typeof v === "number" && Number.isInteger(v) && v >= min && v <= max ? v : null);

function PrivacyForm({ stored, saving, onSave, onRan, onRunFailed }: FormProps) {
  const [on, setOn] = useState(stored.retentionYears !== null);
  const [years, setYears] = useState<number | null>(stored.retentionYears ?? RETENTION_SUGGESTED_YEARS);
  const [threshold, setThreshold] = useState<number | null>(stored.bulkExportThreshold);
  const [block, setBlock] = useState(stored.blockOnAlarm);
  const draft: PrivacySettings | null =
    (on && years === null) || threshold === null ? null : { retentionYears: on ? years : null, bulkExportThreshold: threshold, blockOnAlarm: block };
  const changed = draft !== null && JSON.stringify(draft) !== JSON.stringify(stored);

  return (
    <Stack gap="sm">
      <Switch
        label="Remove students after their last cohort"
        description="Each night at 02:30 (server time), students whose last cohort ended more than the chosen years ago are erased."
        checked={on}
        onChange={(e) => setOn(e.currentTarget.checked)}
      />
      {on && (
        <>
          <NumberInput
            label="Years after the last cohort ended"
            description={`${RETENTION_SUGGESTED_YEARS} years is the suggestion; check your district data agreement.`}
            min={1}
            max={50}
            allowDecimal={false}
            value={years ?? ""}
            onChange={(v) => setYears(wholeOrNull(v, 1, 50))}
            error={years === null ? "Enter a whole number of years from 1 to 50" : undefined}
            maw={320}
          />
          {years !== null && <RetentionPreview years={years} />}
        </>
      )}
      <NumberInput
        label="Bulk-export alarm threshold"
        description="Distinct students one user may view or export in 24 hours; three full exports also raise the alarm."
        min={1}
        max={1_000_000}
        allowDecimal={false}
        value={threshold ?? ""}
        onChange={(v) => setThreshold(wholeOrNull(v, 1, 1_000_000))}
        error={threshold === null ? "Enter a whole number from 1 to 1000000" : undefined}
        maw={320}
      />
      <Switch
        label="Block exports on alarm"
        description="Refuse that user's exports until a super admin clears the alarm."
        checked={block}
        onChange={(e) => setBlock(e.currentTarget.checked)}
      />
      <Group justify="space-between" gap="sm">
        {stored.retentionYears !== null ? <RunRetentionButton years={stored.retentionYears} onDone={onRan} onFailed={onRunFailed} /> : <span />}
        <Button onClick={() => draft && onSave(draft)} loading={saving} disabled={!changed && !saving}>
          Save Privacy Settings
        </Button>
      </Group>
    </Stack>
  );
}

/** Issue 32: retention (with what it would remove, before it is switched on) and the bulk-export alarm. */
export function PrivacySettingsSection() {
  const privacy = usePrivacySettings();
  const { banner, show, clear } = useBanner();
  const save = useSavePrivacySettings();
  const onSave = (value: PrivacySettings) =>
    save.mutate(value, { onSuccess: () => show("success", PRIVACY_TEXTS.saved), onError: () => show("error", PRIVACY_TEXTS.saveFailed) });
  return (
    <SettingsSection title="Privacy and retention">
      <BannerAlert banner={banner} onClose={clear} />
      {privacy.isPending ? (
        <Group gap="xs" role="status">
          <Loader size="xs" aria-hidden="true" />
          <Text size="sm">Loading privacy settings...</Text>
        </Group>
      ) : privacy.isError ? (
        <Alert color="red" role="alert">
          <Group justify="space-between" gap="sm">
            <span>{PRIVACY_TEXTS.loadFailed}</span>
            <Button size="compact-sm" variant="default" onClick={() => void privacy.refetch()} loading={privacy.isFetching}>
              Retry
            </Button>
          </Group>
        </Alert>
      ) : (
        <PrivacyForm
          key={JSON.stringify(privacy.data)}
          stored={privacy.data}
          saving={save.isPending}
          onSave={onSave}
          onRan={(counts) => show("success", PRIVACY_TEXTS.ran(counts))}
          onRunFailed={() => show("error", PRIVACY_TEXTS.runFailed)}
        />
      )}
    </SettingsSection>
  );
}
