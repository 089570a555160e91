import type { ImportBatch, ImportCommit, ImportPreview, ImportUndoResponse, ImportsResponse } from "@tally/contract";
import type { DatabaseHandle } from "@tally/server/db/connection";
import { sql } from "kysely";
import { BENCH_USERS, pickWorld } from "./dataset.js";
import { generateImportFiles, type ImportFiles, pickImportStudents } from "./import-files.js";
import { type BenchEngine, type Headers, type Step, statementTimer } from "./bench-app.js";
import type { HttpReply } from "./server-process.js";
import { type BenchTarget, signInTo, stepOf, stepOn, withTarget } from "./bench-target.js";
import { summarize, type Timing } from "./stats.js";

/** The week of the issue's performance target: 25,000 students, 50,000 meeting rows. */
export const IMPORT_STUDENTS = 25_000;
const NEW_STUDENTS = 2_500;
const NEW_WITHOUT_EMAIL = 500;
// A new cohort after every cohort of the bench set, so no meeting date collides with the
// students' existing attendance (one record per student, date and meeting type).
const COHORT = {
  cohortName: "Bench Import Cohort (2026)",
  programType: "Projects",
  startDate: "2026-09-07",
  endDate: "2026-11-15",
  totalExpectedHours: "150",
} as const;
const WEEK = { number: 3, start: "2026-09-21" };
/** The tables whose row counts must be the same after both undos as before the import. */
const COUNTED = ["students", "student_cohorts", "student_teams", "teams", "cohorts", "attendance_records", "weekly_data"] as const;


export interface DashboardLatency extends Timing {
  count: number;
}

export interface ImportBenchResult {
  engine: string;
  students: number;
  rows: { meetings: number; progress: number; reflections: number };
  fileBytes: number;
  /** Whether the server ran in a process of its own (its memory and event loop measured alone). */
  separateProcess: boolean;
  preview: Step & { summary: ImportPreview["summary"]; errors: number; warnings: number };
  /** The commit after the preview of the same files: the server writes the preview's plan. */
  commit: Step & { summary: ImportCommit["summary"]; errors: number };
  /** The same week committed again after its undo, with no preview first: read, matched and planned afresh. */
  coldCommit: Step;
  /** allNone: the same files again were refused as changing nothing (no batch recorded). */
  recommit: Step & { allNone: boolean };
  /** The commit undone before the commit without a preview, then the newest batch, then that commit. */
  undo: Step[];
  /** Dashboard requests of another user: idle before the import, and while preview and commit ran. */
  dashboard: { idle: DashboardLatency; preview: DashboardLatency; commit: DashboardLatency; coldCommit: DashboardLatency };
  /** Peak RSS sampled every 50 ms during the import, and the kernel's high-water mark (VmHWM). */
  memory: {
    beforeMb: number;
    sampledPeakMb: number;
    hwmMb: number | null;
    hwmReset: boolean;
    /** Peak of the main thread's JavaScript heap (the rest is the engine's worker and buffers). */
    heapPeakMb: number;
  };
  /**
   * Whether the commit analysed the tables it wrote (the embedded engine has no autovacuum),
   * the planner's row estimate of attendance and weekly data right after the commit against the
   * real count, and what the bench's own analyze cost when the commit did not analyse.
   */
  statistics: { refreshedByServer: boolean; estimatedRows: number; actualRows: number; analyzeMs: number | null };
  restored: { ok: boolean; differences: string[] };
  /**
   * Garbage collections of the main thread during preview and commit: a long pause holds the
   * event loop like any other work, and its length grows with the live heap.
   */
  gc: { longestMs: number; totalMs: number; count: number };
  /** Where the server read the generated files otherwise than they were written. */
  unexpected: string[];
}


/**
 * The weekly import of the issue's Performance section, through the real server (the same
 * multipart body a browser sends): preview, commit while another user loads dashboards, the
 * same files again, then both batches undone so the bench set is left as it was.
 * On the embedded engine the server needs the data folder alone: this process closes its
 * handle while the server runs, and opens it again between the steps that read the database.
 */
export async function runImportBench(
  engine: BenchEngine,
  opts: { log: (line: string) => void; statements?: boolean },
): Promise<ImportBenchResult> {
  const log = opts.log;
  const timer = opts.statements ? statementTimer() : null;
  const session = <T>(fn: (target: BenchTarget) => Promise<T>) => withTarget(engine, { log, timer }, fn);

  const before = await countRows(engine.database);
  const students = await pickImportStudents(engine.database, { total: IMPORT_STUDENTS, newStudents: NEW_STUDENTS, newWithoutEmail: NEW_WITHOUT_EMAIL });
  const files = generateImportFiles(students, { start: WEEK.start });
  const fileBytes = Object.values(files).reduce((n, f) => n + Buffer.byteLength(f.text), 0);
  log(`  import files: ${students.length} students, ${(fileBytes / 1024 / 1024).toFixed(1)} MB in three CSVs`);
  const world = await pickWorld(engine.database);
  const statsBefore = await analyzeState(engine.database);

  const first = await session(async (target) => {
    const admin = await signInTo(target, BENCH_USERS.admin);
    const district = await signInTo(target, BENCH_USERS.district);
    const left = await undoLeftovers(target, admin, log);
    if (left > 0) throw new Error(`${left} import(s) left by an interrupted run were undone: run the bench again`);
    const dashboard = dashboardLoop(target, district, world.cohortId);
    const idle = await dashboard.during(() => new Promise((resolve) => setTimeout(resolve, 3000)));
    const memory = target.watchMemory();
    timer?.reset();
    const preview = await importStep(target, dashboard, admin, "preview-weekly-data", importForm(files, null), students.length);
    log(`  preview: ${preview.ms.toFixed(0)} ms, event loop blocked ${preview.loop.blockedMs.toFixed(0)} ms`);
    timer?.print("preview", log);
    timer?.reset();
    const commit = await importStep(target, dashboard, admin, "commit-weekly-data", importForm(files, null), students.length);
    log(`  commit: ${commit.ms.toFixed(0)} ms, event loop blocked ${commit.loop.blockedMs.toFixed(0)} ms`);
    timer?.print("commit", log);
    // The API also takes a commit with no preview before it: undone, the week is committed so.
    const undoCommit = await stepOn(target, () => undoBatch(target, admin, commit.reply.batchId));
    timer?.reset();
    const cold = await importStep(target, dashboard, admin, "commit-weekly-data", importForm(files, null), students.length);
    log(`  commit without a preview: ${cold.ms.toFixed(0)} ms, event loop blocked ${cold.loop.blockedMs.toFixed(0)} ms`);
    timer?.print("commit without a preview", log);
    const recommit = await stepOn(target, () => send(target, "commit-weekly-data", admin, importForm(files, cold.reply.cohortId)));
    // Files that change nothing are refused (409) and record no batch (issue 29).
    const allNone = nothingChanged(recommit.value);
    log(`  same files again: ${recommit.ms.toFixed(0)} ms, ${allNone ? "refused, nothing to change" : `NOT REFUSED: ${recommit.value.statusCode}`}`);
    const batches = [cold.reply.batchId];
    const peak = memory();
    const recommitStep = { ...stepOf(recommit), allNone };
    return { idle, preview, commit, undoCommit: stepOf(undoCommit), cold, peak, recommit: recommitStep, batches, separate: target.separate };
  });
  const { idle, preview, commit, undoCommit, cold, peak, recommit, batches } = first;
  const gcPauses = {
    longestMs: Math.max(preview.reading.gc.longestMs, commit.reading.gc.longestMs, cold.reading.gc.longestMs),
    totalMs: preview.reading.gc.totalMs + commit.reading.gc.totalMs + cold.reading.gc.totalMs,
    count: preview.reading.gc.count + commit.reading.gc.count + cold.reading.gc.count,
  };
  const statsAfter = await analyzeState(engine.database);

  // The embedded engine has no autovacuum: if the commit did not refresh statistics, the
  // planner works from the pre-import counts until someone runs analyze. A server stopped and
  // started again may not keep its analyse counter (PGlite does not write its statistics file
  // at close), so a planner estimate that moved to the real count counts too.
  const refreshedByServer =
    statsAfter.analyses > statsBefore.analyses ||
    (statsAfter.estimated !== statsBefore.estimated && Math.abs(statsAfter.estimated - statsAfter.actual) <= statsAfter.actual * 0.005);
  let analyzeMs: number | null = null;
  if (!refreshedByServer) {
    const t0 = performance.now();
    await sql`analyze`.execute(engine.database.db);
    analyzeMs = performance.now() - t0;
  }

  const unexpected = [...preview.reply.surprises, ...commit.reply.surprises, ...cold.reply.surprises];
  for (const line of unexpected) log(`  UNEXPECTED ${line}`);

  // The undos run in a server started afresh (the database is read in between): a few
  // dashboard requests first, so that its start-up is not counted against them.
  const undo = await session(async (target) => {
    const admin = await signInTo(target, BENCH_USERS.admin);
    const district = await signInTo(target, BENCH_USERS.district);
    await dashboardLoop(target, district, world.cohortId).during(() => new Promise((resolve) => setTimeout(resolve, 2000)));
    const steps: Step[] = [];
    for (const id of batches) {
      const step = await stepOn(target, () => undoBatch(target, admin, id));
      steps.push(stepOf(step));
    }
    log(`  undo: ${steps.map((u) => `${u.ms.toFixed(0)} ms`).join(" + ")}`);
    return [undoCommit, ...steps];
  });

  const after = await countRows(engine.database);
  // Leave the set as the dashboard bench expects it: no dead rows, fresh statistics.
  const t0 = performance.now();
  await sql`vacuum (analyze)`.execute(engine.database.db);
  log(`  vacuum (analyze) after the undo: ${(performance.now() - t0).toFixed(0)} ms`);
  const differences = COUNTED.filter((t) => before[t] !== after[t]).map((t) => `${t} ${before[t]} → ${after[t]}`);

  return {
    engine: engine.database.engine,
    students: students.length,
    rows: { meetings: students.length * 2, progress: students.length, reflections: students.length },
    fileBytes,
    separateProcess: first.separate,
    preview: { ...stepOf(preview), summary: preview.reply.summary, errors: preview.reply.errors, warnings: preview.reply.warnings },
    commit: { ...stepOf(commit), summary: commit.reply.summary, errors: commit.reply.errors },
    coldCommit: stepOf(cold),
    recommit,
    undo,
    dashboard: { idle: idle.latency, preview: preview.latency, commit: commit.latency, coldCommit: cold.latency },
    memory: { ...peak, heapPeakMb: Math.max(preview.reading.heapPeakMb, commit.reading.heapPeakMb, cold.reading.heapPeakMb) },
    gc: gcPauses,
    statistics: { refreshedByServer, estimatedRows: statsAfter.estimated, actualRows: statsAfter.actual, analyzeMs },
    restored: { ok: differences.length === 0, differences },
    unexpected,
  };
}

/**
 * The multipart body the import form sends: the new cohort's fields (or, once the first commit
 * made it, the cohort's id), the week and the three files.
 */
function importForm(files: ImportFiles, cohortId: number | null): FormData {
  const form = new FormData();
  if (cohortId === null) for (const [key, value] of Object.entries(COHORT)) form.append(key, value);
  else form.append("cohortId", String(cohortId));
  form.append("weekNumber", String(WEEK.number));
  for (const [field, file] of Object.entries(files)) {
    form.append(field, new File([file.text], file.name, { type: "text/csv" }));
  }
  return form;
}

function send(target: BenchTarget, endpoint: string, headers: Headers, form: FormData): Promise<HttpReply> {
  return target.request("POST", `/api/flag-upload/${endpoint}`, { headers, body: form });
}

function parseReply<T>(res: HttpReply, step: string): T {
  if (res.statusCode !== 200) throw new Error(`${step}: ${res.statusCode} ${res.body.slice(0, 500)}`);
  return res.json<T>();
}

async function undoBatch(target: BenchTarget, headers: Headers, id: number): Promise<ImportUndoResponse> {
  const res = await target.request("POST", `/api/imports/${id}/undo`, { headers });
  if (res.statusCode !== 200) throw new Error(`undo of import ${id}: ${res.statusCode} ${res.body.slice(0, 500)}`);
  return res.json<ImportUndoResponse>();
}

/** An interrupted earlier run leaves its batches behind: take them back, newest first. */
async function undoLeftovers(target: BenchTarget, headers: Headers, log: (line: string) => void): Promise<number> {
  const res = await target.request("GET", "/api/imports?limit=200", { headers });
  if (res.statusCode !== 200) throw new Error(`GET /api/imports: ${res.statusCode} ${res.body.slice(0, 300)}`);
  const left = res
    .json<ImportsResponse>()
    .data.filter((b: ImportBatch) => b.cohortName === COHORT.cohortName && b.undoneAt === null)
    .sort((a, b) => b.id - a.id);
  for (const batch of left) {
    log(`  undoing import ${batch.id} left by an interrupted run`);
    await undoBatch(target, headers, batch.id);
  }
  return left.length;
}

/**
 * The generated week, read right: every student found, the new ones new, two meetings and one
 * weekly row each created, and no row refused (the files are valid throughout).
 */
function surprises(step: string, result: ImportPreview, students: number): string[] {
  const s = result.summary;
  const wanted: [string, number, number][] = [
    ["totalStudentsInFiles", s.totalStudentsInFiles, students],
    ["newStudentsCreatedCount", s.newStudentsCreatedCount, NEW_STUDENTS],
    ["attendanceRecordsCreated", s.attendanceRecordsCreated, students * 2],
    ["weeklyDataCreated", s.weeklyDataCreated, students],
    ["errorsEncountered", result.errorsEncountered.length, 0],
  ];
  const lines = wanted.filter(([, got, want]) => got !== want).map(([name, got, want]) => `${step}: ${name} ${got}, ${want} expected`);
  for (const e of result.errorsEncountered.slice(0, 3)) lines.push(`${step}: ${e.error}`);
  return lines;
}

/**
 * Preview or commit while the dashboard loop runs. The body is built before and the reply
 * parsed after the timing (a browser and a real socket do that work outside this process),
 * and only a digest of the reply leaves this function, so the bench's own copy of a
 * 25,000-student reply does not swell the heap being measured.
 */
async function importStep(
  target: BenchTarget,
  dashboard: ReturnType<typeof dashboardLoop>,
  headers: Headers,
  endpoint: "preview-weekly-data" | "commit-weekly-data",
  form: FormData,
  students: number,
) {
  const { value, ...step } = await stepOn(target, () => dashboard.during(() => send(target, endpoint, headers, form)));
  const parsed = parseReply<Partial<ImportCommit> & ImportPreview>(value.result, endpoint);
  const reply = {
    summary: parsed.summary,
    errors: parsed.errorsEncountered.length,
    warnings: parsed.warnings.length,
    surprises: surprises(endpoint.startsWith("preview") ? "preview" : "commit", parsed, students),
    batchId: parsed.batchId ?? 0,
    cohortId: parsed.cohortId ?? 0,
  };
  return { ...step, latency: value.latency, reply };
}


/** The commit of the same files again is refused as changing nothing. */
function nothingChanged(res: HttpReply): boolean {
  return res.statusCode === 409 && res.body.includes("these files change nothing");
}

async function countRows(database: DatabaseHandle): Promise<Record<(typeof COUNTED)[number], number>> {
  const counts = {} as Record<(typeof COUNTED)[number], number>;
  for (const table of COUNTED) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(database.db);
    counts[table] = rows[0]?.n ?? 0;
  }
  return counts;
}

/**
 * How often the import's two big tables have been analysed by hand (not by autovacuum), and the
 * planner's row estimate for them against their real count: what tells whether the commit
 * refreshed the statistics. (n_mod_since_analyze would be simpler, but PGlite leaves it at 0.)
 */
async function analyzeState(database: DatabaseHandle): Promise<{ analyses: number; estimated: number; actual: number }> {
  const { rows } = await sql<{ analyses: number; estimated: number; actual: number }>`
    select (select coalesce(sum(analyze_count), 0)::int from pg_stat_user_tables
             where relname in ('attendance_records', 'weekly_data')) as analyses,
           (select coalesce(sum(reltuples), 0)::bigint from pg_class
             where relname in ('attendance_records', 'weekly_data') and relkind = 'r') as estimated,
           (select count(*) from attendance_records) + (select count(*) from weekly_data) as actual`.execute(database.db);
  return rows[0] ?? { analyses: 0, estimated: 0, actual: 0 };
}


/**
 * Another user (the district user) loading the dashboard over and over: the trend of all their
 * schools, the cohort's trend and the first page of students, one request after another.
 */
const PACE_MS = 100;

function dashboardLoop(target: BenchTarget, headers: Headers, cohortId: number) {
  const urls = ["/api/attendance/cohort-trends", `/api/attendance/cohort-trends?cohortId=${cohortId}`, "/api/students?page=1&limit=48"];
  return {
    async during<T>(work: () => Promise<T>): Promise<{ result: T; latency: DashboardLatency }> {
      const samples: number[] = [];
      let last = 0;
      // An object, not a let: the loop reads what the finally block below sets.
      const state = { done: false };
      const loop = (async () => {
        for (let i = 0; !state.done; i++) {
          const url = urls[i % urls.length] ?? "";
          const t0 = performance.now();
          // One request every PACE_MS at most: a person clicking constantly, not a script
          // taking every cycle the import leaves (that measured the machine, not the server).
          if (i > 0 && t0 - last < PACE_MS) await new Promise((resolve) => setTimeout(resolve, PACE_MS - (t0 - last)));
          last = performance.now();
          const res = await target.request("GET", url, { headers });
          if (res.statusCode !== 200) throw new Error(`GET ${url} during the import: ${res.statusCode} ${res.body.slice(0, 200)}`);
          samples.push(performance.now() - last);
        }
      })();
      // Held until the work ends, so a failing dashboard request is reported, not left unhandled.
      const failed = loop.then(
        () => null,
        (err: unknown) => err,
      );
      let result: T;
      try {
        result = await work();
      } finally {
        state.done = true;
      }
      const err = await failed;
      if (err) throw err;
      return { result, latency: { ...summarize(samples), count: samples.length } };
    },
  };
}
