import type { AlertDetails, AlertRule, AlertSeverity, AlertState } from "@tally/contract";
import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import { idArray, pageAsOneText } from "../../db/json-rows.js";
import { cohortVisible, type DataScope, hiddenStudentsInScope, schoolInScope, teamInScope } from "../scope/scope.js";

// The follow-up list: alerts of the students the caller sees (the dashboards' scope), an
// alert's school being its student's school. One alert is shown only where its own cohort is
// visible at that school, so a hidden cohort hides its alerts as it hides its rows elsewhere.

export interface AlertFilters {
  states: readonly AlertState[];
  cohortId?: number | undefined;
  rule?: AlertRule | undefined;
  severity?: AlertSeverity | undefined;
  studentId?: number | undefined;
  /** Only these students' alerts (a search's students); an empty list keeps none. */
  studentIds?: readonly number[] | undefined;
  /** Only alerts assigned to this user (assignedToMe). */
  assigneeId?: number | undefined;
}

export interface AlertRow {
  id: number;
  student_id: number;
  first_name: string;
  last_name: string;
  school_id: number | null;
  school_name: string | null;
  cohort_id: number;
  cohort_name: string;
  team_name: string | null;
  rule: AlertRule;
  severity: AlertSeverity;
  state: AlertState;
  level: number;
  evidence: string;
  details: AlertDetails;
  opened_at: Date;
  updated_at: Date;
  assignee_id: number | null;
  assignee_name: string | null;
  data_withdrawn: boolean;
}

const ENDED_STATES: readonly AlertState[] = ["resolved", "dismissed"];

/**
 * SQL: the episodes the state filter asks for. Open and acknowledged ones count while their
 * condition lasts (an ended episode is history); resolved and dismissed ones whatever it did.
 */
function stateMatches(states: readonly AlertState[]) {
  const list = sql.join(states.map((s) => sql.lit(s)));
  const ended = states.filter((s) => ENDED_STATES.includes(s));
  if (ended.length === 0) return sql<SqlBool>`(a.state in (${list}) and a.condition_ended_at is null)`;
  return sql<SqlBool>`(a.state in (${list}) and (a.condition_ended_at is null or a.state in (${sql.join(ended.map((s) => sql.lit(s)))})))`;
}

/**
 * SQL: the alert (as `a`) is one the scope sees, written on the alert's own columns (its
 * school_id is its student's, migration 027) so that the school is filtered before the page
 * is picked, through the live-episode indexes in the list's order: an admin's scope (every
 * school but a few) reads no students but the hidden ones; a school user's only its school's
 * alerts. The cohort is checked at the alert's school only where visibility rows can hide it.
 */
function alertInScope(scope: DataScope): RawBuilder<SqlBool> {
  const parts: RawBuilder<SqlBool>[] = [schoolInScope(scope, "a.school_id", { nullable: true })];
  const hidden = hiddenStudentsInScope(scope);
  if (hidden) parts.push(sql<SqlBool>`a.student_id not in (${hidden})`);
  parts.push(cohortVisible(scope, "a.cohort_id", "a.school_id"));
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

/** Alerts (as `a`) the scope sees under the filters. */
export function alertsInScope(db: DbExecutor, scope: DataScope, filters: AlertFilters) {
  let query = db.selectFrom("alerts as a").where(alertInScope(scope)).where(stateMatches(filters.states));
  if (filters.cohortId !== undefined) query = query.where("a.cohort_id", "=", filters.cohortId);
  if (filters.rule !== undefined) query = query.where("a.rule", "=", filters.rule);
  if (filters.severity !== undefined) query = query.where("a.severity", "=", filters.severity);
  if (filters.studentId !== undefined) query = query.where("a.student_id", "=", filters.studentId);
  if (filters.studentIds !== undefined) query = query.where(sql<SqlBool>`a.student_id = any(${idArray(filters.studentIds)})`);
  if (filters.assigneeId !== undefined) query = query.where("a.assignee_id", "=", filters.assigneeId);
  return query;
}

/** Urgent first, then the oldest episode: the order of the call list. */
const SEVERITY_RANK = sql<number>`case a.severity when 'urgent' then 0 when 'warning' then 1 else 2 end`;

/** The rows of alerts already known to be in scope (the scope only picks the team shown). */
async function alertRows(db: DbExecutor, scope: DataScope, ids: readonly number[]): Promise<AlertRow[]> {
  if (ids.length === 0) return [];
  const rows = (await selectAlertRows(db, scope).where("a.id", "in", ids).execute()) as AlertRow[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

function selectAlertRows(db: DbExecutor, scope: DataScope) {
  return db
    .selectFrom("alerts as a")
    .innerJoin("students as s", "s.id", "a.student_id")
    .innerJoin("cohorts as c", "c.id", "a.cohort_id")
    .leftJoin("schools as sch", "sch.id", "s.school_id")
    .leftJoin("users as u", "u.id", "a.assignee_id")
    .select([
      "a.id",
      "a.student_id",
      "s.first_name",
      "s.last_name",
      "s.school_id",
      "sch.name as school_name",
      "a.cohort_id",
      "c.name as cohort_name",
      "a.rule",
      "a.severity",
      "a.state",
      "a.level",
      "a.evidence",
      "a.details",
      "a.opened_at",
      "a.updated_at",
      "a.assignee_id",
      "u.username as assignee_name",
      "a.data_withdrawn",
      // The student's newest team among the teams in scope (as the student list shows it).
      sql<string | null>`(select t.name from student_teams st join teams t on t.id = st.team_id
         where st.student_id = a.student_id and ${teamInScope(scope, "t")}
         order by st.joined_at desc, st.team_id desc limit 1)`.as("team_name"),
    ]);
}

type PackedAlertRow = Omit<AlertRow, "opened_at" | "updated_at"> & { opened_at: string; updated_at: string };

/**
 * How a page comes back: as rows (PostgreSQL: its driver decodes rows quickly, and building
 * JSON in the server made the school user's page 5 -> 8 ms), or as one JSON text (the embedded
 * engine: decoding rows field by field and handing them between threads cost more than the
 * query; one text made its page 10 -> 3.4 ms). Same rows either way.
 */
export type ListAnswer = "rows" | "json";

/**
 * One page of the list, urgent first and oldest first, with the count of all that match, in
 * one statement (one round trip). The page's ids are picked joining only what the scope needs;
 * names, teams and assignees are then read for those few rows alone, never for every match.
 */
export async function listAlerts(
  db: DbExecutor,
  scope: DataScope,
  filters: AlertFilters,
  page: { offset: number; limit: number },
  answer: ListAnswer = "rows",
): Promise<{ rows: AlertRow[]; total: number }> {
  const count = alertsInScope(db, scope, filters).select(sql<number>`count(*)::int`.as("total"));
  const ids = alertsInScope(db, scope, filters)
    .select(["a.id", SEVERITY_RANK.as("rank")])
    .orderBy(SEVERITY_RANK)
    .orderBy("a.opened_at")
    .orderBy("a.id")
    // Written in, not sent as parameters: a statement without any is planned once and kept
    // prepared on either engine (pg-prepared-reads.ts, pglite-statements.js); planning this
    // one cost as much as running it.
    .offset(sql.lit(page.offset))
    .limit(sql.lit(page.limit));
  const rows = selectAlertRows(db, scope).innerJoin(ids.as("p"), "p.id", "a.id").select("p.rank");
  if (answer === "json") {
    const packed = await pageAsOneText<PackedAlertRow & { rank?: number }>(db, sql`(${count})`, rows, sql`r.rank, r.opened_at, r.id`);
    return {
      rows: packed.rows.map(({ rank: _rank, ...row }) => ({ ...row, opened_at: new Date(row.opened_at), updated_at: new Date(row.updated_at) })),
      total: packed.total,
    };
  }
  // A page past the end still brings the count back: one row with no alert.
  const { rows: found } = await sql<AlertRow & { total: number; rank: number | null }>`
    select t.total, r.* from (${count}) as t left join lateral (${rows}) as r on true
     order by r.rank, r.opened_at, r.id`.execute(db);
  return { rows: found.filter((r) => r.id !== null).map(({ total: _t, rank: _r, ...row }) => row as AlertRow), total: found[0]?.total ?? 0 };
}

/** Every alert of the student in scope, newest episode first (the student card). */
export async function listStudentAlerts(db: DbExecutor, scope: DataScope, studentId: number, states: readonly AlertState[]): Promise<AlertRow[]> {
  const ids = await alertsInScope(db, scope, { states, studentId }).select("a.id").orderBy("a.opened_at", "desc").orderBy("a.id", "desc").execute();
  return alertRows(
    db,
    scope,
    ids.map((r) => r.id),
  );
}

/** One alert, if the scope sees it (any state, ended or not). */
export async function findAlertRow(db: DbExecutor, scope: DataScope, id: number): Promise<AlertRow | undefined> {
  const found = await alertsInScope(db, scope, { states: ["open", "acknowledged", "resolved", "dismissed"] }).select("a.id").where("a.id", "=", id).executeTakeFirst();
  return found ? (await alertRows(db, scope, [found.id]))[0] : undefined;
}

/** Counts by state and severity under the filters. */
export async function countByStateAndSeverity(
  db: DbExecutor,
  scope: DataScope,
  filters: AlertFilters,
): Promise<Array<{ state: AlertState; severity: AlertSeverity; n: number }>> {
  const rows = await alertsInScope(db, scope, filters)
    .select(["a.state", "a.severity", sql<string>`count(*)`.as("n")])
    .groupBy(["a.state", "a.severity"])
    .execute();
  return rows.map((r) => ({ state: r.state, severity: r.severity, n: Number(r.n) }));
}

/** The students with an alert under the filters, at most `limit`. */
export async function alertStudentIds(db: DbExecutor, scope: DataScope, filters: AlertFilters, limit: number): Promise<number[]> {
  const rows = await alertsInScope(db, scope, filters).select("a.student_id").distinct().orderBy("a.student_id").limit(limit).execute();
  return rows.map((r) => r.student_id);
}

export interface AlertEventRow {
  alert_id: number;
  at: Date;
  kind: string;
  user_id: number | null;
  user_name: string | null;
  note: string | null;
}

/** The timelines of these alerts, oldest first, with the acting users' names. */
export async function listAlertEvents(db: DbExecutor, alertIds: readonly number[]): Promise<AlertEventRow[]> {
  if (alertIds.length === 0) return [];
  return db
    .selectFrom("alert_events as e")
    .leftJoin("users as u", "u.id", "e.user_id")
    .select(["e.alert_id", "e.at", "e.kind", "e.user_id", "u.username as user_name", "e.note"])
    .where("e.alert_id", "in", alertIds)
    .orderBy("e.at")
    .orderBy("e.id")
    .execute();
}

/** Start and end dates of these cohorts (for the week of a note). */
export async function cohortDates(db: DbExecutor, cohortIds: readonly number[]) {
  if (cohortIds.length === 0) return [];
  return db.selectFrom("cohorts").select(["id", "start_date", "end_date"]).where("id", "in", cohortIds).execute();
}

