import type { AlertDetails, AlertRule, AlertSeverity, AlertState, ALERT_EVENT_KINDS } from "@tally/contract";
import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";

// The live episodes of a cohort and the writes that reconcile them with the rules' verdicts,
// each set-based (one statement per slice of rows).

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

export async function findLiveEpisodes(db: DbExecutor, cohortId: number): Promise<LiveEpisode[]> {
  const rows = await db
    .selectFrom("alerts")
    .select(["id", "student_id", "rule", "severity", "state", "level", "evidence", "details", "year_start", "raised_by_batch", "resolved_level"])
    .where("cohort_id", "=", cohortId)
    .where("condition_ended_at", "is", null)
    .execute();
  return rows.map((r) => ({ ...r, year_start: String(r.year_start).slice(0, 10), details: typeof r.details === "string" ? JSON.parse(r.details) : r.details }));
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

/** Inserts new episodes (state open); returns their ids in the order given. */
export async function insertEpisodes(db: DbExecutor, rows: readonly NewEpisode[], at: Date): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto("alerts")
    .values(rows.map((r) => ({ ...r, details: JSON.stringify(r.details), state: "open" as const, opened_at: at, updated_at: at })))
    .returning("id")
    .execute();
  return inserted.map((r) => r.id);
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

/** Updates many episodes in one statement (joined to a VALUES list). */
export async function updateEpisodes(db: DbExecutor, rows: readonly EpisodeUpdate[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${r.id}::int, ${r.severity}::text, ${r.state}::text, ${r.level}::int, ${r.evidence}::text, ${JSON.stringify(r.details)}::jsonb, ${r.stateChanged}::boolean)`,
    ),
  );
  await sql`
    update alerts set severity = v.severity, state = v.state, level = v.level, evidence = v.evidence, details = v.details,
      updated_at = ${at},
      state_changed_at = case when v.state_changed then ${at} else alerts.state_changed_at end,
      state_changed_by = case when v.state_changed then null else alerts.state_changed_by end
    from (values ${values}) as v(id, severity, state, level, evidence, details, state_changed)
    where alerts.id = v.id`.execute(db);
}

/** Ends episodes (their condition no longer holds, or a new programme year began). */
export async function endEpisodes(db: DbExecutor, ids: readonly number[], at: Date, withdrawn = false): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("alerts")
    .set({ condition_ended_at: at, updated_at: at, ...(withdrawn ? { data_withdrawn: true } : {}) })
    .where("id", "in", ids)
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
  await db
    .insertInto("alert_events")
    .values(rows.map((r) => ({ ...r, at, user_id: null })))
    .execute();
}
