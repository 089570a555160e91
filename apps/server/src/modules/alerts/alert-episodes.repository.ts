import type { AlertDetails, AlertRule, AlertSeverity, AlertState, ALERT_EVENT_KINDS } from "@tally/contract";
import { type Kysely, type RawBuilder, sql } from "kysely";
import { idArray, jsonRows } from "../../db/json-rows.js";
import type { DbExecutor } from "../../db/executor.js";
import type { Database } from "../../db/schema.js";

// The live episodes of a cohort and the writes that reconcile them with the rules' verdicts,
// each set-based (one statement per slice of rows, the rows handed over as one JSON parameter).

export type AlertEventKind = (typeof ALERT_EVENT_KINDS)[number];

export interface LiveEpisode {
  id: number;
  student_id: number;
  rule: AlertRule;
  severity: AlertSeverity;
  state: AlertState;
  level: number;
  evidence: string;
  details: AlertDetails;
  year_start: string;
  raised_by_batch: number | null;
  resolved_level: number | null;
}

/** Pins one cohort's evaluation until the transaction ends: two evaluations never race for the same episode. */
export async function lockCohortEvaluation(trx: DbExecutor, cohortId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(30, ${cohortId}::int)`.execute(trx);
}

const LIVE_COLUMNS = sql`json_build_object('id', id, 'student_id', student_id, 'rule', rule, 'severity', severity, 'state', state,
  'level', level, 'evidence', evidence, 'details', details, 'year_start', year_start, 'raised_by_batch', raised_by_batch,
  'resolved_level', resolved_level)`;

/** The rows as one JSON text (the embedded engine decodes rows field by field, slowly). */
async function liveEpisodes(db: DbExecutor, where: RawBuilder<unknown>): Promise<LiveEpisode[]> {
  const { rows } = await sql<{ packed: string | null }>`select json_agg(${LIVE_COLUMNS})::text as packed from alerts
    where condition_ended_at is null and ${where}`.execute(db);
  const packed = rows[0]?.packed;
  return packed ? (JSON.parse(packed) as LiveEpisode[]) : [];
}

/** The live episodes of these students in the cohort. */
export function findLiveEpisodes(db: DbExecutor, cohortId: number, studentIds: readonly number[]): Promise<LiveEpisode[]> {
  if (studentIds.length === 0) return Promise.resolve([]);
  return liveEpisodes(db, sql`cohort_id = ${cohortId} and student_id = any(${idArray(studentIds)})`);
}

/** The cohort's live episodes of students who are no longer its members. */
export function findLiveEpisodesOfOthers(db: DbExecutor, cohortId: number, memberIds: readonly number[]): Promise<LiveEpisode[]> {
  return liveEpisodes(db, sql`cohort_id = ${cohortId} and student_id <> all(${idArray(memberIds)})`);
}

export interface NewEpisode {
  student_id: number;
  cohort_id: number;
  rule: AlertRule;
  severity: AlertSeverity;
  level: number;
  evidence: string;
  details: AlertDetails;
  year_start: string;
  raised_by_batch: number | null;
}

/** Inserts new episodes (state open, at the student's school), each with its "opened" event, in one statement. */
export async function insertEpisodes(db: DbExecutor, rows: readonly NewEpisode[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    with added as (
      insert into alerts (student_id, school_id, cohort_id, rule, severity, level, evidence, details, year_start, raised_by_batch, state, opened_at, updated_at)
      select v.student_id, s.school_id, v.cohort_id, v.rule, v.severity, v.level, v.evidence, v.details, v.year_start, v.raised_by_batch, 'open', ${at}::timestamptz, ${at}::timestamptz
      from json_to_recordset(${jsonRows(rows)}) as v(student_id int, cohort_id int, rule text, severity text, level int, evidence text,
        details jsonb, year_start date, raised_by_batch int)
      join students s on s.id = v.student_id
      returning id, level, evidence
    )
    insert into alert_events (alert_id, kind, level, note, at, user_id)
    select id, 'opened', level, evidence, ${at}::timestamptz, null from added`.execute(db);
}

export interface EpisodeUpdate {
  id: number;
  severity: AlertSeverity;
  state: AlertState;
  level: number;
  evidence: string;
  details: AlertDetails;
  /** The state changed (a reopening): state_changed_at is set to the time, by nobody. */
  stateChanged: boolean;
}

/** Updates many episodes in one statement (joined to the rows given as JSON). */
export async function updateEpisodes(db: DbExecutor, rows: readonly EpisodeUpdate[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    update alerts set severity = v.severity, state = v.state, level = v.level, evidence = v.evidence, details = v.details,
      updated_at = ${at}::timestamptz,
      state_changed_at = case when v."stateChanged" then ${at}::timestamptz else alerts.state_changed_at end,
      state_changed_by = case when v."stateChanged" then null else alerts.state_changed_by end
    from json_to_recordset(${jsonRows(rows)}) as v(id int, severity text, state text, level int, evidence text, details jsonb, "stateChanged" boolean)
    where alerts.id = v.id`.execute(db);
}

/** Ends episodes (their condition no longer holds, or a new programme year began). */
export async function endEpisodes(db: DbExecutor, ids: readonly number[], at: Date, withdrawn = false): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("alerts")
    .set({ condition_ended_at: at, updated_at: at, ...(withdrawn ? { data_withdrawn: true } : {}) })
    .where(sql<boolean>`id = any(${idArray(ids)})`)
    .execute();
}

export async function deleteEpisodes(db: DbExecutor, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom("alerts").where("id", "in", ids).execute();
}

/** Of these alerts, the ones someone acted on (an event besides opened and escalated). */
export async function findTouched(db: DbExecutor, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom("alert_events")
    .select("alert_id")
    .distinct()
    .where("alert_id", "in", ids)
    .where("kind", "not in", ["opened", "escalated"])
    .execute();
  return new Set(rows.map((r) => r.alert_id));
}

/** Live episodes of any cohort that began in an earlier programme year. */
export async function findLiveBefore(db: DbExecutor, yearStart: string): Promise<number[]> {
  const rows = await db.selectFrom("alerts").select("id").where("condition_ended_at", "is", null).where("year_start", "<", yearStart).execute();
  return rows.map((r) => r.id);
}

export interface NewEvent {
  alert_id: number;
  kind: AlertEventKind;
  level: number | null;
  note: string | null;
}

/** Timeline entries written by the evaluation (no user). */
export async function insertEvents(db: DbExecutor, rows: readonly NewEvent[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  await sql`insert into alert_events (alert_id, kind, level, note, at, user_id)
    select v.alert_id, v.kind, v.level, v.note, ${at}::timestamptz, null
    from json_to_recordset(${jsonRows(rows)}) as v(alert_id int, kind text, level int, note text)`.execute(db);
}

/**
 * Marks the alerts' pages all-visible again after a large evaluation, so the call list counts
 * from its index alone (migration 029) at once, and gives the planner the table's new figures:
 * the embedded engine has no autovacuum, and PostgreSQL's comes later. Measured on the bench
 * set, a freshly filled table never analysed made the admin's first page 8 -> 23 ms at p50 on
 * both engines. Another instance's vacuum already running is enough: skip_locked. Outside any
 * transaction (VACUUM cannot run in one).
 */
export async function vacuumAlerts(db: Kysely<Database>): Promise<void> {
  await sql`vacuum (analyze, skip_locked) alerts`.execute(db);
}
