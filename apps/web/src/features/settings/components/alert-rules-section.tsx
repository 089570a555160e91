import { Alert, Button, Group, List, NativeSelect, Stack, Text, TextInput, Title } from "@mantine/core";
import { ALERT_RULE_WORDS, ALERT_RULES, type AlertRules, type AlertSchedule } from "@tally/contract";
import { useState } from "react";
import { SectionLoader } from "../../../components/section-loader";
import { useCohorts } from "../../../lib/api/get-cohorts";
import { errorText } from "../../../lib/api-error";
import { useAlertRules } from "../api/get-alert-rules";
import { usePreviewAlertRules } from "../api/preview-alert-rules";
import { useSaveAlertRules } from "../api/save-alert-rules";
import { type Draft, errorsByField, numberOf, overrideOf, setOverride, setRule } from "../lib/alert-rule-draft";
import { AlertRuleFields, AlertRuleOverrideFields } from "./alert-rule-fields";
import { SettingsSection } from "./settings-section";

/** The errors under one prefix ("rules.2."), keyed by the rest of the path. */
function under(errors: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(errors)) if (path.startsWith(prefix)) out[path.slice(prefix.length)] = message;
  return out;
}

function draftOf(saved: AlertRules): Draft {
  // Sent in the contract's order, so a 400's rules.<i> names the rule shown i-th.
  const rules = ALERT_RULES.map((rule) => saved.rules.find((r) => r.rule === rule)).filter((r) => r !== undefined);
  return { rules, cohortOverrides: saved.cohortOverrides, schedule: saved.schedule };
}

function ScheduleFields({ schedule, errors, onChange }: { schedule: AlertSchedule; errors: Record<string, string>; onChange: (s: AlertSchedule) => void }) {
  const set = (patch: Partial<AlertSchedule>) => onChange({ ...schedule, ...patch });
  return (
    <Group gap="sm" align="flex-start" wrap="wrap">
      <TextInput
        type="number"
        label="Mentor meetings per week"
        min={0}
        max={7}
        w={200}
        value={String(schedule.mentorMeetingsPerWeek)}
        onChange={(e) => set({ mentorMeetingsPerWeek: numberOf(e.currentTarget.value) as number })}
        error={errors.mentorMeetingsPerWeek}
      />
      <TextInput
        type="number"
        label="Advisor meetings per week"
        min={0}
        max={7}
        w={200}
        value={String(schedule.advisorMeetingsPerWeek)}
        onChange={(e) => set({ advisorMeetingsPerWeek: numberOf(e.currentTarget.value) as number })}
        error={errors.advisorMeetingsPerWeek}
      />
      <NativeSelect
        label="Late counts as"
        value={schedule.lateCountsAs}
        onChange={(e) => set({ lateCountsAs: e.currentTarget.value as AlertSchedule["lateCountsAs"] })}
        data={[
          { value: "attended", label: "Attended" },
          { value: "missed", label: "Missed" },
        ]}
        error={errors.lateCountsAs}
      />
      <NativeSelect
        label="Weekly digest is sent"
        value={schedule.digestWhen}
        onChange={(e) => set({ digestWhen: e.currentTarget.value as AlertSchedule["digestWhen"] })}
        data={[
          { value: "monday_morning", label: "Monday 07:00" },
          { value: "after_import", label: "Right after each import" },
        ]}
        error={errors.digestWhen}
      />
      <TextInput
        label="Time zone"
        description="e.g. Europe/London"
        value={schedule.timeZone}
        onChange={(e) => set({ timeZone: e.currentTarget.value })}
        error={errors.timeZone}
      />
    </Group>
  );
}

function RulesForm({ saved }: { saved: AlertRules }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const [cohortId, setCohortId] = useState<number | null>(null);
  const cohorts = useCohorts(null);
  const preview = usePreviewAlertRules();
  const save = useSaveAlertRules();
  const failed = save.error ?? preview.error;
  const errors = errorsByField(failed);
  const change = (next: Draft) => {
    setDraft(next);
    preview.reset();
  };
  const overrideIndex = (rule: (typeof ALERT_RULES)[number]) =>
    cohortId === null ? -1 : draft.cohortOverrides.findIndex((o) => o.cohortId === cohortId && o.rule === rule);

  return (
    <Stack gap="md">
      <Text size="sm">
        Each rule raises an alert for a student; the call list and the weekly digest show them. A cohort may change any
        field; what it leaves unset follows the programme.
      </Text>
      {draft.rules.map((r, i) => (
        <AlertRuleFields key={r.rule} setting={r} errors={under(errors, `rules.${i}.`)} onChange={(patch) => change(setRule(draft, r.rule, patch))} />
      ))}
      <Title order={3} size="h4">
        Schedule
      </Title>
      <ScheduleFields schedule={draft.schedule} errors={under(errors, "schedule.")} onChange={(schedule) => change({ ...draft, schedule })} />
      <Title order={3} size="h4">
        Per-cohort overrides
      </Title>
      <NativeSelect
        label="Cohort to override"
        value={cohortId === null ? "" : String(cohortId)}
        onChange={(e) => setCohortId(e.currentTarget.value ? Number(e.currentTarget.value) : null)}
        data={[{ value: "", label: "Choose a cohort" }, ...(cohorts.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))]}
      />
      {cohortId !== null
        ? draft.rules.map((r) => (
            <AlertRuleOverrideFields
              key={r.rule}
              setting={r}
              override={overrideOf(draft, cohortId, r.rule)}
              errors={under(errors, `cohortOverrides.${overrideIndex(r.rule)}.`)}
              onEnabled={(enabled) => change(setOverride(draft, cohortId, r.rule, { enabled }))}
              onSeverity={(severity) => change(setOverride(draft, cohortId, r.rule, { severity }))}
              onParam={(param, value) => change(setOverride(draft, cohortId, r.rule, { param, value }))}
            />
          ))
        : null}
      {failed ? (
        <Alert color="red" role="alert">
          {errorText(failed, "The rules could not be checked. Please try again.")}
        </Alert>
      ) : null}
      {preview.data ? (
        <Stack gap={4} role="status" aria-label="Preview">
          <Text size="sm" fw={600}>
            Students each rule would raise now (nothing saved yet):
          </Text>
          <List size="sm">
            {ALERT_RULES.map((rule) => (
              <List.Item key={rule}>
                {ALERT_RULE_WORDS[rule]}: {preview.data.counts[rule] ?? 0}
              </List.Item>
            ))}
          </List>
        </Stack>
      ) : null}
      {save.isSuccess ? (
        <Text size="sm" role="status">
          Alert rules saved.
        </Text>
      ) : null}
      <Group gap="sm">
        <Button
          variant="default"
          loading={preview.isPending}
          onClick={() => {
            save.reset();
            preview.mutate(draft);
          }}
        >
          Preview
        </Button>
        <Button
          loading={save.isPending}
          onClick={() => {
            preview.reset();
            save.mutate(draft);
          }}
        >
          Save alert rules
        </Button>
      </Group>
    </Stack>
  );
}

/** Admin Settings → "Alert Rules" (issue 30): the six rules, the schedule, per-cohort overrides, preview and save. */
export function AlertRulesSection() {
  const rules = useAlertRules();
  return (
    <SettingsSection title="Alert Rules">
      {rules.isPending ? (
        <SectionLoader label="Loading alert rules" />
      ) : rules.isError || !Array.isArray(rules.data.rules) ? (
        <Alert color="red" role="alert">
          Failed to load the alert rules. Please try again.
        </Alert>
      ) : (
        <RulesForm saved={rules.data} />
      )}
    </SettingsSection>
  );
}
