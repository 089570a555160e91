import type { AlertRule, AlertRuleOverride, AlertRulesBody, AlertRuleSetting, AlertSeverity } from "@tally/contract";
import { ApiError } from "../../../lib/api-error";

export interface ParamField {
  key: string;
  label: string;
  kind: "percent" | "count" | "boolean";
  /** The contract's range (alerts.ts): percentages 0–100, counts 1–max. */
  min?: number;
  max?: number;
}

const percent = (key: string, label: string): ParamField => ({ key, label, kind: "percent", min: 0, max: 100 });
const count = (key: string, label: string, max: number): ParamField => ({ key, label, kind: "count", min: 1, max });

/** Each rule's parameters as the form shows them. */
export const PARAM_FIELDS: Record<AlertRule, ParamField[]> = {
  attendance_band: [
    percent("atRiskPercent", "At risk from (% missed)"),
    percent("chronicPercent", "Chronic from (% missed)"),
    percent("severePercent", "Severe from (% missed)"),
    count("minMeetings", "Judge after (meetings held)", 100),
  ],
  consecutive_misses: [
    count("count", "Misses in a row", 52),
    { key: "countTogether", label: "Mentor and advisor meetings count as one run", kind: "boolean" },
  ],
  target_out_of_reach: [percent("targetPercent", "Attendance target (%)")],
  flags: [count("perWeek", "Flags in one week", 50), count("sameCodeWeeks", "Weeks in a row with the same flag", 52)],
  missing_from_reports: [{ key: "crmEnrolled", label: "Also CRM sessions still “Enrolled” after the week", kind: "boolean" }],
  low_hours: [percent("percentOfExpected", "Below this % of the expected hours")],
};

export type Draft = Required<AlertRulesBody>;

export function setRule(draft: Draft, rule: AlertRule, patch: Partial<AlertRuleSetting>): Draft {
  return { ...draft, rules: draft.rules.map((r) => (r.rule === rule ? { ...r, ...patch } : r)) };
}

export function overrideOf(draft: Draft, cohortId: number, rule: AlertRule): AlertRuleOverride | undefined {
  return draft.cohortOverrides.find((o) => o.cohortId === cohortId && o.rule === rule);
}

/** Sets (or, with undefined, clears back to inherited) one field of a cohort's override; an empty override is dropped. */
export function setOverride(
  draft: Draft,
  cohortId: number,
  rule: AlertRule,
  field: { enabled?: boolean | undefined } | { severity?: AlertSeverity | undefined } | { param: string; value: unknown },
): Draft {
  const current: AlertRuleOverride = overrideOf(draft, cohortId, rule) ?? { cohortId, rule };
  const next: AlertRuleOverride = { ...current };
  if ("param" in field) {
    const params = { ...current.params };
    if (field.value === undefined) delete params[field.param];
    else params[field.param] = field.value;
    if (Object.keys(params).length > 0) next.params = params;
    else delete next.params;
  } else if ("enabled" in field) {
    if (field.enabled === undefined) delete next.enabled;
    else next.enabled = field.enabled;
  } else if ("severity" in field) {
    if (field.severity === undefined) delete next.severity;
    else next.severity = field.severity;
  }
  const others = draft.cohortOverrides.filter((o) => !(o.cohortId === cohortId && o.rule === rule));
  const empty = next.enabled === undefined && next.severity === undefined && next.params === undefined;
  return { ...draft, cohortOverrides: empty ? others : [...others, next] };
}

/** A number field's text as the body's value: empty text is "not set", anything else a number (the server judges it). */
export function numberOf(text: string): number | undefined {
  return text.trim() === "" ? undefined : Number(text);
}

/** The 400's details by field path without the "body." prefix ("rules.0.params.count"). */
export function errorsByField(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const body = error.body as { details?: Array<{ path: string; message: string }> } | undefined;
  const out: Record<string, string> = {};
  for (const d of body?.details ?? []) out[d.path.replace(/^body\./, "")] ??= d.message;
  return out;
}
