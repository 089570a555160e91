import { Checkbox, Group, NativeSelect, Paper, Stack, Switch, TextInput, Title } from "@mantine/core";
import { ALERT_RULE_WORDS, ALERT_SEVERITIES, type AlertRuleOverride, type AlertRuleSetting, type AlertSeverity } from "@tally/contract";
import { numberOf, PARAM_FIELDS } from "../lib/alert-rule-draft";

const SEVERITY_WORDS: Record<AlertSeverity, string> = { urgent: "Urgent", warning: "Warning", info: "Info" };
const SEVERITY_CHOICES = ALERT_SEVERITIES.map((s) => ({ value: s, label: SEVERITY_WORDS[s] }));

interface RuleProps {
  setting: AlertRuleSetting;
  /** The 400's messages for this rule, by "enabled", "severity" or "params.<name>". */
  errors: Record<string, string>;
  onChange: (patch: Partial<AlertRuleSetting>) => void;
}

/** One programme rule: on/off, severity and its parameters within the contract's ranges. */
export function AlertRuleFields({ setting, errors, onChange }: RuleProps) {
  const words = ALERT_RULE_WORDS[setting.rule];
  const setParam = (key: string, value: unknown) => onChange({ params: { ...setting.params, [key]: value } });
  return (
    <Paper withBorder p="sm" component="fieldset" aria-label={words} data-testid={`rule-${setting.rule}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} size="h5">
            {words}
          </Title>
          <Switch
            label={`${words}: on`}
            checked={setting.enabled}
            onChange={(e) => onChange({ enabled: e.currentTarget.checked })}
          />
        </Group>
        <Group gap="sm" align="flex-start" wrap="wrap">
          <NativeSelect
            label={`${words}: severity`}
            value={setting.severity}
            onChange={(e) => onChange({ severity: e.currentTarget.value as AlertSeverity })}
            data={SEVERITY_CHOICES}
            error={errors.severity}
          />
          {PARAM_FIELDS[setting.rule].map((f) =>
            f.kind === "boolean" ? (
              <Checkbox
                key={f.key}
                mt="lg"
                label={f.label}
                checked={setting.params[f.key] === true}
                onChange={(e) => setParam(f.key, e.currentTarget.checked)}
                error={errors[`params.${f.key}`]}
              />
            ) : (
              <TextInput
                key={f.key}
                type="number"
                label={f.label}
                min={f.min}
                max={f.max}
                step={f.kind === "count" ? 1 : "any"}
                w={200}
                value={typeof setting.params[f.key] === "number" ? String(setting.params[f.key]) : ""}
                onChange={(e) => setParam(f.key, numberOf(e.currentTarget.value))}
                error={errors[`params.${f.key}`]}
              />
            ),
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

interface OverrideProps {
  setting: AlertRuleSetting;
  override: AlertRuleOverride | undefined;
  errors: Record<string, string>;
  onEnabled: (value: boolean | undefined) => void;
  onSeverity: (value: AlertSeverity | undefined) => void;
  onParam: (key: string, value: unknown) => void;
}

const INHERIT = "";
const inherited = (value: string) => `Inherited: ${value}`;
const fromChoice = (v: string) => (v === INHERIT ? undefined : v === "on");

/** One rule for one cohort: every field may be left to inherit the programme's value (shown as the placeholder). */
export function AlertRuleOverrideFields({ setting, override, errors, onEnabled, onSeverity, onParam }: OverrideProps) {
  const words = ALERT_RULE_WORDS[setting.rule];
  return (
    <Paper withBorder p="sm" component="fieldset" aria-label={`${words} for this cohort`}>
      <Stack gap="xs">
        <Title order={4} size="h6">
          {words}
        </Title>
        <Group gap="sm" align="flex-start" wrap="wrap">
          <NativeSelect
            label={`${words}: on or off`}
            value={override?.enabled === undefined ? INHERIT : override.enabled ? "on" : "off"}
            onChange={(e) => onEnabled(fromChoice(e.currentTarget.value))}
            data={[
              { value: INHERIT, label: inherited(setting.enabled ? "on" : "off") },
              { value: "on", label: "On" },
              { value: "off", label: "Off" },
            ]}
          />
          <NativeSelect
            label={`${words}: severity`}
            value={override?.severity ?? INHERIT}
            onChange={(e) => onSeverity((e.currentTarget.value || undefined) as AlertSeverity | undefined)}
            data={[{ value: INHERIT, label: inherited(SEVERITY_WORDS[setting.severity]) }, ...SEVERITY_CHOICES]}
          />
          {PARAM_FIELDS[setting.rule].map((f) => {
            const own = override?.params?.[f.key];
            const programme = setting.params[f.key];
            if (f.kind === "boolean") {
              return (
                <NativeSelect
                  key={f.key}
                  label={f.label}
                  value={own === undefined ? INHERIT : own ? "on" : "off"}
                  onChange={(e) => onParam(f.key, fromChoice(e.currentTarget.value))}
                  data={[
                    { value: INHERIT, label: inherited(programme ? "yes" : "no") },
                    { value: "on", label: "Yes" },
                    { value: "off", label: "No" },
                  ]}
                  error={errors[`params.${f.key}`]}
                />
              );
            }
            return (
              <TextInput
                key={f.key}
                type="number"
                label={f.label}
                min={f.min}
                max={f.max}
                w={200}
                placeholder={inherited(String(programme ?? ""))}
                value={typeof own === "number" ? String(own) : ""}
                onChange={(e) => onParam(f.key, numberOf(e.currentTarget.value))}
                error={errors[`params.${f.key}`]}
              />
            );
          })}
        </Group>
      </Stack>
    </Paper>
  );
}
