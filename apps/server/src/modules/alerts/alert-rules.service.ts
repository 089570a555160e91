import {
  ALERT_RULE_PARAMS,
  ALERT_RULES,
  type AlertRule,
  type AlertRuleOverride,
  type AlertRuleSetting,
  type AlertRules,
  type AlertRulesBody,
  type AlertSchedule,
  alertRuleOverrideSchema,
  alertRuleSettingSchema,
  alertScheduleSchema,
  bandsRise,
  DEFAULT_ALERT_RULES,
  DEFAULT_ALERT_SCHEDULE,
} from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import { badRequest } from "../../lib/errors.js";
import { recordChange } from "../audit/audit.service.js";
import * as repo from "./alert-rules.repository.js";

/** The whole rules document: every rule (defaults filled in), the cohort overrides, the schedule. */
export interface AlertRulesDocument {
  rules: AlertRuleSetting[];
  cohortOverrides: AlertRuleOverride[];
  schedule: AlertSchedule;
}

/** One rule as it applies to a cohort (programme setting with the cohort's override merged). */
export interface ResolvedRule {
  rule: AlertRule;
  enabled: boolean;
  severity: AlertRuleSetting["severity"];
  params: Record<string, unknown>;
}

const defaultsOf = (rule: AlertRule): AlertRuleSetting => DEFAULT_ALERT_RULES.find((r) => r.rule === rule) as AlertRuleSetting;

/**
 * The stored document with defaults filled in. Lenient on purpose: a rule, override or schedule
 * that no longer validates (an older shape) falls back to its default instead of failing reads.
 */
export function parseAlertRules(stored: unknown): AlertRulesDocument {
  const value = (stored && typeof stored === "object" ? stored : {}) as Record<string, unknown>;
  const storedRules = new Map<AlertRule, AlertRuleSetting>();
  for (const r of Array.isArray(value.rules) ? value.rules : []) {
    const parsed = alertRuleSettingSchema.safeParse(r);
    if (parsed.success) storedRules.set(parsed.data.rule, parsed.data);
  }
  const cohortOverrides: AlertRuleOverride[] = [];
  for (const o of Array.isArray(value.cohortOverrides) ? value.cohortOverrides : []) {
    const parsed = alertRuleOverrideSchema.safeParse(o);
    if (parsed.success) cohortOverrides.push(parsed.data);
  }
  const schedule = alertScheduleSchema.safeParse(value.schedule);
  return {
    rules: ALERT_RULES.map((rule) => storedRules.get(rule) ?? defaultsOf(rule)),
    cohortOverrides,
    schedule: schedule.success ? schedule.data : { ...DEFAULT_ALERT_SCHEDULE },
  };
}

export async function readAlertRules(db: DbExecutor): Promise<AlertRulesDocument> {
  return parseAlertRules(await repo.readStoredRules(db));
}

/** The rules as they apply to one cohort (its overrides merged over the programme's rules). */
export function resolveRules(doc: AlertRulesDocument, cohortId: number | null): ResolvedRule[] {
  const overrides = cohortId === null ? [] : doc.cohortOverrides.filter((o) => o.cohortId === cohortId);
  return doc.rules.map((setting) => {
    const o = overrides.find((x) => x.rule === setting.rule);
    if (!o) return { ...setting };
    return {
      rule: setting.rule,
      enabled: o.enabled ?? setting.enabled,
      severity: o.severity ?? setting.severity,
      params: { ...setting.params, ...o.params },
    };
  });
}

/** GET /api/alert-rules: the rules that apply (a cohort's, when asked), the overrides and the schedule. */
export async function getAlertRules(db: DbExecutor, cohortId: number | undefined): Promise<AlertRules> {
  const doc = await readAlertRules(db);
  return { ...doc, rules: resolveRules(doc, cohortId ?? null), cohortId: cohortId ?? null };
}

/**
 * The document a PUT (or a preview) would store: a rule the body leaves out keeps its default,
 * a schedule left out keeps the saved one. Refuses (400, naming the field) an override of a
 * cohort that does not exist, and one whose band thresholds, merged over the programme's,
 * would not rise.
 */
export async function documentFromBody(db: DbExecutor, body: AlertRulesBody, saved: AlertRulesDocument): Promise<AlertRulesDocument> {
  const rules = ALERT_RULES.map((rule) => body.rules.find((r) => r.rule === rule) ?? defaultsOf(rule));
  const doc: AlertRulesDocument = { rules, cohortOverrides: body.cohortOverrides, schedule: body.schedule ?? saved.schedule };
  const known = await repo.existingCohortIds(db, body.cohortOverrides.map((o) => o.cohortId));
  const details: Array<{ path: string; message: string }> = [];
  body.cohortOverrides.forEach((o, i) => {
    if (!known.has(o.cohortId)) details.push({ path: `body.cohortOverrides.${i}.cohortId`, message: `cohort ${o.cohortId} does not exist` });
    if (o.rule === "attendance_band" && o.params !== undefined) {
      const merged = resolveRules(doc, o.cohortId).find((r) => r.rule === "attendance_band")?.params;
      const parsed = ALERT_RULE_PARAMS.attendance_band.safeParse(merged);
      if (parsed.success && !bandsRise(parsed.data)) {
        details.push({ path: `body.cohortOverrides.${i}.params`, message: "the bands must rise: atRiskPercent < chronicPercent < severePercent" });
      }
    }
  });
  const first = details[0];
  if (first) throw badRequest(`${first.path.replace(/^body\./, "")}: ${first.message}`, details);
  return doc;
}

/** PUT /api/alert-rules: stores the document and writes the audit row (before and after) in one transaction. */
export async function saveAlertRules(db: DbExecutor, actorId: number, body: AlertRulesBody, at: Date): Promise<AlertRulesDocument> {
  return db.transaction().execute(async (trx) => {
    const before = parseAlertRules(await repo.readStoredRulesForUpdate(trx, at));
    const after = await documentFromBody(trx, body, before);
    await repo.writeStoredRules(trx, after, actorId, at);
    await recordChange(trx, { actorId, action: "update", entity: "settings", entityId: repo.ALERT_RULES_KEY, before, after, at });
    return after;
  });
}
