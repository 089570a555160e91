import {
  ALERT_RULES,
  ALERT_SEVERITIES,
  ALERT_STATES,
  type AlertRule,
  type AlertSeverity,
  type AlertState,
} from "@tally/contract";

/** The call list's filters, as kept in the page address (so a link or reload keeps them). */
export interface AlertFilters {
  schoolId: number | null;
  cohortId: number | null;
  rule: AlertRule | null;
  /** Empty: the server's default (open and acknowledged). */
  states: AlertState[];
  severity: AlertSeverity | null;
  assignedToMe: boolean;
  /** The header's search (the dashboard's `q`): only the students it finds. Empty: none. */
  q: string;
  page: number;
}

const id = (value: string | null) => (value && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null);
const oneOf = <T extends string>(list: readonly T[], value: string | null): T | null =>
  value !== null && (list as readonly string[]).includes(value) ? (value as T) : null;

export function readAlertFilters(params: URLSearchParams): AlertFilters {
  return {
    schoolId: id(params.get("schoolId")),
    cohortId: id(params.get("cohortId")),
    rule: oneOf(ALERT_RULES, params.get("rule")),
    states: (params.get("state") ?? "")
      .split(",")
      .map((s) => oneOf(ALERT_STATES, s))
      .filter((s): s is AlertState => s !== null),
    severity: oneOf(ALERT_SEVERITIES, params.get("severity")),
    assignedToMe: params.get("assignedToMe") === "true",
    q: params.get("q") ?? "",
    page: id(params.get("page")) ?? 1,
  };
}

export function writeAlertFilters(filters: AlertFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.schoolId !== null) params.set("schoolId", String(filters.schoolId));
  if (filters.cohortId !== null) params.set("cohortId", String(filters.cohortId));
  if (filters.rule) params.set("rule", filters.rule);
  if (filters.states.length > 0) params.set("state", filters.states.join(","));
  if (filters.severity) params.set("severity", filters.severity);
  if (filters.assignedToMe) params.set("assignedToMe", "true");
  if (filters.q) params.set("q", filters.q);
  if (filters.page > 1) params.set("page", String(filters.page));
  return params;
}

/** The API's query for these filters (GET /api/alerts and /api/alerts.csv). */
export function alertsApiQuery(filters: AlertFilters, pageSize?: number): Record<string, string | number | undefined> {
  return {
    schoolId: filters.schoolId ?? undefined,
    cohortId: filters.cohortId ?? undefined,
    rule: filters.rule ?? undefined,
    state: filters.states.length > 0 ? filters.states.join(",") : undefined,
    severity: filters.severity ?? undefined,
    assignedToMe: filters.assignedToMe ? "true" : undefined,
    q: filters.q.trim() || undefined,
    page: pageSize ? filters.page : undefined,
    pageSize,
  };
}
