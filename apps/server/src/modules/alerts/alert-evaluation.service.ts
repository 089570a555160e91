import { ALERT_RULES, type AlertRule, type AlertRuleParams, type AlertSchedule, type AlertSeverity, cohortWeekCount, programmeYearStart } from "@tally/contract";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import type { Database } from "../../db/schema.js";
import type { Kysely } from "kysely";
import { inChunks } from "../../lib/in-chunks.js";
import { loopTurns, yieldToLoop } from "../../lib/yield-to-loop.js";
import * as facts from "./alert-facts.repository.js";
import * as episodes from "./alert-episodes.repository.js";
import { findCrmEnrolledAfterWeek } from "./crm-enrolled.repository.js";
import { type AlertRulesDocument, readAlertRules, type ResolvedRule, resolveRules } from "./alert-rules.service.js";
import { RULE_EVALUATORS } from "./rules/index.js";
import type { CohortFacts, Condition, RuleEvaluator, StudentFacts } from "./rules/rule-facts.js";

export type RuleEvaluators = { [R in AlertRule]: RuleEvaluator<R> };

export interface EvaluateOptions {
  /** Default: every cohort running, or ended within the programme year. */
  cohortIds?: number[] | undefined;
  /** The import batch whose commit asked for this evaluation: new episodes are raised by it. */
  batchId?: number | undefined;
  /** A batch just undone: episodes only its data raised are withdrawn (deleted, or marked when someone acted on them). */
  undoneBatchId?: number | undefined;
  /** Only these students of the cohorts (one record corrected): the others' facts did not change. */
  studentIds?: number[] | undefined;
  now: Date;
}

export interface EvaluationResult {
  cohorts: number;
  opened: number;
  escalated: number;
  reopened: number;
  ended: number;
  withdrawn: number;
}

/** Rows per write statement (handed over as one JSON parameter): a short stringify each. */
const WRITE_SLICE = 1000;

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Rows written (alerts inserted, updated, ended or deleted) from which an evaluation vacuums the
 * alerts table: a week's import of a large cohort writes thousands, a small one a handful.
 */
const VACUUM_AFTER_ROWS = 500;

/**
 * Students whose facts are read and judged at a time: bounded memory, short turns of the event
 * loop. 500, not 1,000: on the bench set half the facts alive at once made the young-generation
 * collections during an evaluation 10-20 ms instead of 15-30, and took no longer in all.
 */
const STUDENT_SLICE = 500;

/** One cohort's facts and members, or undefined when it no longer exists. */
export async function loadCohort(db: DbExecutor, cohortId: number): Promise<{ cohort: CohortFacts; memberIds: number[] } | undefined> {
  const row = await facts.findCohort(db, cohortId);
  if (!row) return undefined;
  const [memberIds, latestWeek] = await Promise.all([facts.findMemberIds(db, cohortId), facts.findLatestWeek(db, cohortId)]);
  const startDate = String(row.start_date).slice(0, 10);
  const endDate = String(row.end_date).slice(0, 10);
  const totalExpectedHours = row.total_expected_hours === null ? null : Number(row.total_expected_hours);
  return { cohort: { cohortId, startDate, endDate, totalExpectedHours, latestWeek, totalWeeks: cohortWeekCount(startDate, endDate) }, memberIds };
}

/** The facts of some of the cohort's students (a slice of its members). */
export async function loadStudentFacts(db: DbExecutor, cohort: CohortFacts, studentIds: readonly number[]): Promise<StudentFacts[]> {
  const [meetings, weeks, crmEnrolled] = await Promise.all([
    facts.findMeetings(db, cohort.cohortId, studentIds),
    facts.findWeeks(db, cohort.cohortId, studentIds),
    findCrmEnrolledAfterWeek(db, cohort, studentIds),
  ]);
  const latest = cohort.latestWeek;
  return studentIds.map((studentId) => {
    const m = meetings.get(studentId) ?? [];
    const w = weeks.get(studentId) ?? [];
    const inLatestWeekReports = m.some((x) => x.week === latest) || w.some((x) => x.week === latest);
    return { studentId, meetings: m, weeks: w, inLatestWeekReports, crmEnrolledAfterWeek: crmEnrolled.has(studentId) };
  });
}

/** Every enabled rule's verdict on these students, keyed "studentId:rule". */
async function judgeSlice(
  students: readonly StudentFacts[],
  cohort: CohortFacts,
  enabled: readonly ResolvedRule[],
  schedule: AlertSchedule,
  evaluators: RuleEvaluators,
): Promise<Map<string, Condition>> {
  const verdicts = new Map<string, Condition>();
  const turn = loopTurns();
  for (const student of students) {
    for (const r of enabled) {
      const evaluate = evaluators[r.rule] as RuleEvaluator<AlertRule>;
      const condition = evaluate(student, cohort, r.params as AlertRuleParams[AlertRule], schedule);
      if (condition) verdicts.set(`${student.studentId}:${r.rule}`, condition);
    }
    if (turn.due()) await turn.yield();
  }
  return verdicts;
}

/**
 * The members' facts (and, when asked, their live episodes) a slice at a time, the next slice's
 * reads already sent while the caller works on the one before: the database reads while this
 * thread judges. The reads are of other students than the caller's writes, so they need not wait.
 */
async function* memberSlices<T>(
  memberIds: readonly number[],
  read: (slice: number[]) => Promise<T>,
): AsyncGenerator<{ studentIds: number[]; read: T }> {
  const slices = inChunks(memberIds, STUDENT_SLICE);
  let next = slices[0] ? read(slices[0]) : undefined;
  for (let i = 0; i < slices.length && next; i++) {
    const current = await next;
    const following = slices[i + 1];
    // A read that fails is awaited in its own turn; until then it must not count as unhandled.
    next = following ? read(following) : undefined;
    next?.catch(() => {});
    yield { studentIds: slices[i] as number[], read: current };
    await yieldToLoop();
  }
}

const definedKeys = (o: Record<string, unknown>) => Object.keys(o).filter((k) => o[k] !== undefined);

/**
 * The same JSON value: a condition's details against the stored ones (keys in any order, an
 * undefined property as if absent, as JSON.stringify writes it). No text is built for it.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameJson(x, b[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const kx = definedKeys(x);
  return kx.length === definedKeys(y).length && kx.every((k) => Object.hasOwn(y, k) && sameJson(x[k], y[k]));
}

/** What one slice of students needs written. */
interface SlicePlan {
  toInsert: episodes.NewEpisode[];
  updates: episodes.EpisodeUpdate[];
  events: episodes.NewEvent[];
  ended: number[];
  withdrawnCandidates: episodes.LiveEpisode[];
}

interface SliceContext {
  cohortId: number;
  yearStart: string;
  severityOf: Map<AlertRule, AlertSeverity>;
  opts: EvaluateOptions;
  result: EvaluationResult;
  /** Alert rows written so far by this evaluation (for VACUUM_AFTER_ROWS). */
  written: { rows: number };
}

/** Compares the live episodes of some students with the verdicts on them: the writes that reconcile them. */
async function planSlice(live: readonly episodes.LiveEpisode[], verdicts: Map<string, Condition>, ctx: SliceContext): Promise<SlicePlan> {
  const { yearStart, severityOf, opts, result } = ctx;
  const plan: SlicePlan = { toInsert: [], updates: [], events: [], ended: [], withdrawnCandidates: [] };
  const { updates, events, ended, withdrawnCandidates } = plan;
  const seen = new Set<string>();
  const turn = loopTurns();
  for (const episode of live) {
    if (turn.due()) await turn.yield();
    const key = `${episode.student_id}:${episode.rule}`;
    const condition = verdicts.get(key);
    if (episode.year_start < yearStart) {
      // A new programme year: the old episode ends; a condition that still holds starts a new one below.
      ended.push(episode.id);
      events.push({ alert_id: episode.id, kind: "condition_ended", level: episode.level, note: "new programme year" });
      continue;
    }
    seen.add(key);
    if (!condition) {
      if (opts.undoneBatchId !== undefined && episode.raised_by_batch === opts.undoneBatchId) withdrawnCandidates.push(episode);
      else {
        ended.push(episode.id);
        events.push({ alert_id: episode.id, kind: "condition_ended", level: episode.level, note: null });
      }
      continue;
    }
    const severity = severityOf.get(episode.rule) ?? episode.severity;
    let state = episode.state;
    let stateChanged = false;
    if (condition.level > episode.level) {
      events.push({ alert_id: episode.id, kind: "escalated", level: condition.level, note: condition.evidence });
      result.escalated++;
      const closed = state === "resolved" || state === "dismissed";
      if (closed && condition.level > (episode.resolved_level ?? episode.level)) {
        state = "open";
        stateChanged = true;
        events.push({ alert_id: episode.id, kind: "reopened", level: condition.level, note: null });
        result.reopened++;
      }
    } else if (
      condition.level === episode.level &&
      severity === episode.severity &&
      condition.evidence === episode.evidence &&
      sameJson(condition.details, episode.details)
    ) {
      continue;
    }
    updates.push({ id: episode.id, severity, state, level: condition.level, evidence: condition.evidence, details: condition.details, stateChanged });
  }
  for (const [key, condition] of verdicts) {
    if (seen.has(key)) continue;
    const [student, rule] = key.split(":") as [string, AlertRule];
    plan.toInsert.push({
      student_id: Number(student),
      cohort_id: ctx.cohortId,
      rule,
      severity: severityOf.get(rule) ?? "warning",
      level: condition.level,
      evidence: condition.evidence,
      details: condition.details,
      year_start: yearStart,
      raised_by_batch: opts.batchId ?? null,
    });
  }
  return plan;
}

/** Writes one slice's plan: ended first (the live-episode index allows one live episode per student, rule and cohort). */
async function writeSlice(trx: DbExecutor, plan: SlicePlan, at: Date, result: EvaluationResult, written: { rows: number }): Promise<void> {
  written.rows += plan.ended.length + plan.withdrawnCandidates.length + plan.updates.length + plan.toInsert.length;
  await episodes.endEpisodes(trx, plan.ended, at);
  result.ended += plan.ended.length;
  await withdraw(trx, plan.withdrawnCandidates, plan.events, at, result);
  for (const slice of inChunks(plan.updates, WRITE_SLICE)) await episodes.updateEpisodes(trx, slice, at);
  for (const slice of inChunks(plan.toInsert, WRITE_SLICE)) await episodes.insertEpisodes(trx, slice, at);
  result.opened += plan.toInsert.length;
  for (const slice of inChunks(plan.events, WRITE_SLICE)) await episodes.insertEvents(trx, slice, at);
}

/**
 * Reconciles one cohort's live episodes with the verdicts, in one transaction, a slice of
 * students at a time: each slice's facts and live episodes are read, judged, compared and
 * written before the next, so memory and every turn of the event loop stay small.
 */
async function reconcileCohort(
  db: Kysely<Database>,
  cohortId: number,
  doc: AlertRulesDocument,
  opts: EvaluateOptions,
  evaluators: RuleEvaluators,
  result: EvaluationResult,
  written: { rows: number },
): Promise<void> {
  const at = opts.now;
  await db.transaction().execute(async (trx) => {
    await episodes.lockCohortEvaluation(trx, cohortId);
    const loaded = await loadCohort(trx, cohortId);
    if (!loaded) return;
    const rules = resolveRules(doc, cohortId);
    const enabled = rules.filter((r) => r.enabled);
    const ctx: SliceContext = { cohortId, yearStart: programmeYearStart(dayOf(at)), severityOf: new Map(rules.map((r) => [r.rule, r.severity])), opts, result, written };
    const readSlice = (ids: number[]) =>
      Promise.all([enabled.length > 0 ? loadStudentFacts(trx, loaded.cohort, ids) : [], episodes.findLiveEpisodes(trx, cohortId, ids)]);
    const only = opts.studentIds === undefined ? undefined : new Set(opts.studentIds);
    const members = only ? loaded.memberIds.filter((id) => only.has(id)) : loaded.memberIds;
    for await (const { read } of memberSlices(members, readSlice)) {
      const [students, live] = read;
      const verdicts = await judgeSlice(students, loaded.cohort, enabled, doc.schedule, evaluators);
      await writeSlice(trx, await planSlice(live, verdicts, ctx), at, result, written);
    }
    // A correction of some students changed nobody's membership.
    if (only) return;
    // Students who left the cohort: no verdict, so their live episodes end (or are withdrawn).
    const others = await episodes.findLiveEpisodesOfOthers(trx, cohortId, loaded.memberIds);
    await writeSlice(trx, await planSlice(others, new Map(), ctx), at, result, written);
  });
}

/**
 * Undo of a batch: an episode only its data raised goes when nobody acted on it (still open, no
 * event besides opened and escalated); otherwise it is kept, ended and marked "data withdrawn".
 */
async function withdraw(trx: DbExecutor, candidates: episodes.LiveEpisode[], events: episodes.NewEvent[], at: Date, result: EvaluationResult) {
  if (candidates.length === 0) return;
  const touched = await episodes.findTouched(trx, candidates.map((e) => e.id));
  const untouched = candidates.filter((e) => e.state === "open" && !touched.has(e.id)).map((e) => e.id);
  const kept = candidates.filter((e) => e.state !== "open" || touched.has(e.id));
  await episodes.deleteEpisodes(trx, untouched);
  await episodes.endEpisodes(trx, kept.map((e) => e.id), at, true);
  for (const e of kept) events.push({ alert_id: e.id, kind: "data_withdrawn", level: e.level, note: "the import that raised it was undone" });
  result.withdrawn += candidates.length;
}

/** The cohorts evaluated by default: running now, or ended within the current programme year. */
export function cohortsToEvaluate(db: DbExecutor, now: Date): Promise<number[]> {
  return facts.findCohortsToEvaluate(db, dayOf(now), programmeYearStart(dayOf(now)));
}

/**
 * Turns the rules into stored alerts for the cohorts (default: every cohort running or ended in
 * the programme year): opens, updates, escalates, reopens and ends episodes, one transaction per
 * cohort, yielding to the event loop between slices of writes.
 */
export async function evaluateAlerts(db: Kysely<Database>, opts: EvaluateOptions, evaluators: RuleEvaluators = RULE_EVALUATORS): Promise<EvaluationResult> {
  const result: EvaluationResult = { cohorts: 0, opened: 0, escalated: 0, reopened: 0, ended: 0, withdrawn: 0 };
  const doc = await readAlertRules(db);
  const cohortIds = opts.cohortIds ?? (await cohortsToEvaluate(db, opts.now));
  const written = { rows: 0 };
  if (opts.cohortIds === undefined) written.rows += await endEarlierYears(db, opts.now, result);
  for (const cohortId of cohortIds) {
    await reconcileCohort(db, cohortId, doc, opts, evaluators, result, written);
    result.cohorts++;
    await yieldToLoop();
  }
  // Best effort: only how fast the list counts depends on it, never what it shows.
  if (written.rows >= VACUUM_AFTER_ROWS) await episodes.vacuumAlerts(db).catch(() => undefined);
  return result;
}

/** Episodes of cohorts no longer evaluated still end at the programme-year boundary. */
async function endEarlierYears(db: Kysely<Database>, now: Date, result: EvaluationResult): Promise<number> {
  const ids = await episodes.findLiveBefore(db, programmeYearStart(dayOf(now)));
  for (const slice of inChunks(ids, WRITE_SLICE)) {
    await db.transaction().execute(async (trx) => {
      await episodes.endEpisodes(trx, slice, now);
      await episodes.insertEvents(trx, slice.map((id) => ({ alert_id: id, kind: "condition_ended", level: null, note: "new programme year" })), now);
    });
    result.ended += slice.length;
  }
  return ids.length;
}

/** POST /api/alert-rules/preview: how many students each rule of `doc` would raise now. Writes nothing. */
export async function previewAlertCounts(db: Kysely<Database>, doc: AlertRulesDocument, now: Date, evaluators: RuleEvaluators = RULE_EVALUATORS): Promise<Record<AlertRule, number>> {
  const students = Object.fromEntries(ALERT_RULES.map((r) => [r, new Set<number>()])) as Record<AlertRule, Set<number>>;
  for (const cohortId of await cohortsToEvaluate(db, now)) {
    const loaded = await loadCohort(db, cohortId);
    if (!loaded) continue;
    const enabled = resolveRules(doc, cohortId).filter((r) => r.enabled);
    if (enabled.length === 0) continue;
    for await (const { read } of memberSlices(loaded.memberIds, (ids) => loadStudentFacts(db, loaded.cohort, ids))) {
      for (const key of (await judgeSlice(read, loaded.cohort, enabled, doc.schedule, evaluators)).keys()) {
        const [student, rule] = key.split(":") as [string, AlertRule];
        students[rule].add(Number(student));
      }
    }
    await yieldToLoop();
  }
  return Object.fromEntries(ALERT_RULES.map((r) => [r, students[r].size])) as Record<AlertRule, number>;
}

/**
 * The evaluation after a change (import commit, flag import, undo, rule change). It never fails
 * the change that asked for it: an error is logged and the change stands.
 */
export async function evaluateAlertsAfterChange(ctx: ServerContext, opts: Omit<EvaluateOptions, "now">): Promise<void> {
  try {
    await evaluateAlerts(ctx.database.db, { ...opts, now: ctx.clock.now() });
  } catch (err) {
    ctx.log?.error({ err, ...opts }, "alert evaluation failed; the change stands");
  }
}
