import {
  type Alert,
  type AlertEvent,
  type AlertList,
  type AlertsQuery,
  type AlertState,
  type AlertSummary,
  ALERT_SEVERITIES,
  ALERT_STATES,
  currentCohortWeek,
  type StudentAlerts,
} from "@tally/contract";
import type { Engine } from "../../db/connection.js";
import type { DbExecutor } from "../../db/executor.js";
import { type DataScope, resolveScope, resolveStudentReadScope, type ScopeSubject } from "../scope/scope.js";
import { matchingStudentIds, requireStudentInScope } from "../students/students.service.js";
import * as repo from "./alerts-list.repository.js";

/** How the list's pages come back from this engine (see ListAnswer). */
export const listAnswerFor = (engine: Engine): repo.ListAnswer => (engine === "embedded" ? "json" : "rows");

/** The list's default: what still needs someone. */
export const LIVE_STATES: readonly AlertState[] = ["open", "acknowledged"];
/** GET /alerts/summary lists at most this many students. */
export const SUMMARY_STUDENT_LIMIT = 5000;

type Caller = ScopeSubject & { id: number };

/**
 * The caller's scope (the dashboards': a schoolId narrows it, or opens the demo school alone) and
 * the filters. A search keeps the alerts of the students the dashboard's own search finds in that
 * scope, so the Needs attention card counts the students every other figure counts.
 */
async function scopeAndFilters(db: DbExecutor, user: Caller, query: Omit<AlertsQuery, "page" | "pageSize">) {
  const scope = await resolveScope(db, user, { schoolIds: query.schoolId === undefined ? undefined : [query.schoolId] });
  const filters: repo.AlertFilters = {
    studentIds: query.q ? await matchingStudentIds(db, scope, { q: query.q }) : undefined,
    states: query.state ?? LIVE_STATES,
    cohortId: query.cohortId,
    rule: query.rule,
    severity: query.severity,
    studentId: query.studentId,
    assigneeId: query.assignedToMe ? user.id : undefined,
  };
  return { scope, filters };
}

const iso = (at: Date | string) => new Date(at).toISOString();

export function toAlert(r: repo.AlertRow): Alert {
  return {
    id: r.id,
    studentId: r.student_id,
    studentName: `${r.first_name} ${r.last_name}`.trim(),
    schoolId: r.school_id,
    schoolName: r.school_name,
    cohortId: r.cohort_id,
    cohortName: r.cohort_name,
    teamName: r.team_name,
    rule: r.rule,
    severity: r.severity,
    state: r.state,
    evidence: r.evidence,
    details: r.details,
    since: iso(r.opened_at),
    updatedAt: iso(r.updated_at),
    assigneeId: r.assignee_id,
    assigneeName: r.assignee_name,
    dataWithdrawn: r.data_withdrawn,
  };
}

/** GET /alerts: a page of the call list in the caller's scope. */
export async function listAlerts(db: DbExecutor, user: Caller, query: AlertsQuery, answer?: repo.ListAnswer): Promise<AlertList> {
  const { scope, filters } = await scopeAndFilters(db, user, query);
  const { rows, total } = await repo.listAlerts(db, scope, filters, { offset: (query.page - 1) * query.pageSize, limit: query.pageSize }, answer);
  return { data: rows.map(toAlert), total };
}

/**
 * GET /alerts/summary: byState counts every state under the other filters; severity, total and
 * the students count the live ones (open, acknowledged) the state filter keeps.
 */
export async function summarizeAlerts(db: DbExecutor, user: Caller, query: Omit<AlertsQuery, "page" | "pageSize">): Promise<AlertSummary> {
  const { scope, filters } = await scopeAndFilters(db, user, query);
  const live = filters.states.filter((s) => LIVE_STATES.includes(s));
  const counts = await repo.countByStateAndSeverity(db, scope, { ...filters, states: ALERT_STATES });
  const byState = Object.fromEntries(ALERT_STATES.map((s) => [s, 0])) as AlertSummary["byState"];
  const bySeverity = Object.fromEntries(ALERT_SEVERITIES.map((s) => [s, 0])) as AlertSummary["bySeverity"];
  let total = 0;
  for (const c of counts) {
    byState[c.state] += c.n;
    if (live.includes(c.state)) {
      bySeverity[c.severity] += c.n;
      total += c.n;
    }
  }
  const studentIds = live.length === 0 ? [] : await repo.alertStudentIds(db, scope, { ...filters, states: live }, SUMMARY_STUDENT_LIMIT);
  return { byState, bySeverity, total, studentIds };
}

const CSV_PAGE = 1000;

/** GET /alerts.csv: every alert of the list under the filters, in its order, a page at a time. */
export async function* alertsForCsv(
  db: DbExecutor,
  user: Caller,
  query: Omit<AlertsQuery, "page" | "pageSize">,
  answer?: repo.ListAnswer,
): AsyncGenerator<Alert> {
  const { scope, filters } = await scopeAndFilters(db, user, query);
  for (let offset = 0; ; offset += CSV_PAGE) {
    const { rows } = await repo.listAlerts(db, scope, filters, { offset, limit: CSV_PAGE }, answer);
    for (const row of rows) yield toAlert(row);
    if (rows.length < CSV_PAGE) return;
  }
}

/** The cohort week a moment falls in (its UTC day): week 1 from the start date, at most the cohort's last week. */
const weekOf = (start: string, end: string, at: Date): number => currentCohortWeek(start, end, at.toISOString().slice(0, 10));

/**
 * GET /students/:id/alerts: the student's alerts (every state, ended episodes included) with
 * their timelines, and the weeks of the follow-up notes. A student out of scope is a 404.
 */
export async function studentAlerts(db: DbExecutor, user: ScopeSubject, studentId: number): Promise<StudentAlerts> {
  const scope: DataScope = await resolveStudentReadScope(db, user);
  await requireStudentInScope(db, scope, studentId);
  const rows = await repo.listStudentAlerts(db, scope, studentId, ALERT_STATES);
  const [events, cohorts] = await Promise.all([
    repo.listAlertEvents(
      db,
      rows.map((r) => r.id),
    ),
    repo.cohortDates(db, [...new Set(rows.map((r) => r.cohort_id))]),
  ]);
  const cohortById = new Map(cohorts.map((c) => [c.id, c]));
  const timelineOf = new Map<number, AlertEvent[]>();
  const noteWeeks: StudentAlerts["noteWeeks"] = [];
  const cohortOf = new Map(rows.map((r) => [r.id, r.cohort_id]));
  for (const e of events) {
    const event: AlertEvent = { at: iso(e.at), kind: e.kind as AlertEvent["kind"], userId: e.user_id, userName: e.user_name, note: e.note };
    timelineOf.set(e.alert_id, [...(timelineOf.get(e.alert_id) ?? []), event]);
    const cohortId = cohortOf.get(e.alert_id);
    const cohort = cohortId === undefined ? undefined : cohortById.get(cohortId);
    if (e.kind === "resolved" && e.note && cohort) {
      noteWeeks.push({ cohortId: cohort.id, week: weekOf(cohort.start_date, cohort.end_date, new Date(e.at)), at: event.at });
    }
  }
  return { data: rows.map((r) => ({ ...toAlert(r), timeline: timelineOf.get(r.id) ?? [] })), noteWeeks };
}
