import { readFileSync, writeFileSync } from "node:fs";
import type { ImportBatch, ImportCommit, ImportPreview, ImportUndoResponse, ImportsResponse } from "@tally/contract";
import type { DatabaseHandle } from "@tally/server/db/connection";
import type { FastifyInstance, LightMyRequestResponse as Response } from "fastify";
import { sql } from "kysely";
import { BENCH_USERS, pickWorld } from "./dataset.js";
import { generateImportFiles, type ImportFiles, pickImportStudents } from "./import-files.js";
import { type Headers, mb, signIn, startApp, type Step, statementTimer, timed, watchGc } from "./bench-app.js";
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
  preview: Step & { summary: ImportPreview["summary"]; errors: number; warnings: number };
  commit: Step & { summary: ImportCommit["summary"]; errors: number };
  recommit: Step & { allNone: boolean };
  undo: Step[];
  /** Dashboard requests of another user: idle before the import, and while preview and commit ran. */
  dashboard: { idle: DashboardLatency; preview: DashboardLatency; commit: DashboardLatency };
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
 * The weekly import of the issue's Performance section, through the real app (inject, the same
 * multipart body a browser sends): preview, commit while another user loads dashboards, the
 * same files again, then both batches undone so the bench set is left as it was.
 */
export async function runImportBench(
  database: DatabaseHandle,
  opts: { log: (line: string) => void; statements?: boolean },
): Promise<ImportBenchResult> {
  const log = opts.log;
  const timer = opts.statements ? statementTimer() : null;
  const app = await startApp(timer ? { ...database, db: database.db.withPlugin(timer.plugin) } : database);
  // Timing statements, the other user's dashboard gets an app of its own (same process, same
  // database), so that only the import's statements are listed.
  const dashboardApp = timer ? await startApp(database) : app;
  try {
    const admin = await signIn(app, BENCH_USERS.admin);
    const district = await signIn(dashboardApp, BENCH_USERS.district);
    await undoLeftovers(app, admin, log);
    const before = await countRows(database);

    const students = await pickImportStudents(database, { total: IMPORT_STUDENTS, newStudents: NEW_STUDENTS, newWithoutEmail: NEW_WITHOUT_EMAIL });
    const files = generateImportFiles(students, { start: WEEK.start });
    const fileBytes = Object.values(files).reduce((n, f) => n + Buffer.byteLength(f.text), 0);
    log(`  import files: ${students.length} students, ${(fileBytes / 1024 / 1024).toFixed(1)} MB in three CSVs`);

    const world = await pickWorld(database);
    const dashboard = dashboardLoop(dashboardApp, district, world.cohortId);
    const idle = await dashboard.during(() => new Promise((resolve) => setTimeout(resolve, 3000)));

    const memory = watchMemory();
    const gc = watchGc();
    timer?.reset();
    const preview = await importStep(app, dashboard, admin, "preview-weekly-data", importForm(files, null), students.length);
    log(`  preview: ${preview.ms.toFixed(0)} ms, event loop blocked ${preview.loop.blockedMs.toFixed(0)} ms`);
    timer?.print("preview", log);
    const statsBefore = await analyzeState(database);
    timer?.reset();
    const commit = await importStep(app, dashboard, admin, "commit-weekly-data", importForm(files, null), students.length);
    log(`  commit: ${commit.ms.toFixed(0)} ms, event loop blocked ${commit.loop.blockedMs.toFixed(0)} ms`);
    timer?.print("commit", log);
    const peak = memory.stop();
    const gcPauses = gc.stop();
    const statsAfter = await analyzeState(database);

    // The embedded engine has no autovacuum: if the commit did not refresh statistics, the
    // planner works from the pre-import counts until someone runs analyze.
    const refreshedByServer = statsAfter.analyses > statsBefore.analyses;
    let analyzeMs: number | null = null;
    if (!refreshedByServer) {
      const t0 = performance.now();
      await sql`analyze`.execute(database.db);
      analyzeMs = performance.now() - t0;
    }

    const unexpected = [...preview.reply.surprises, ...commit.reply.surprises];
    for (const line of unexpected) log(`  UNEXPECTED ${line}`);

    const recommitForm = importForm(files, commit.reply.cohortId);
    const recommit = await timed(() => send(app, "commit-weekly-data", admin, recommitForm));
    const recommitReply = parseReply<ImportCommit>(recommit.value, "second commit");
    const allNone = nothingChanged(recommitReply);
    log(`  same files again: ${recommit.ms.toFixed(0)} ms, ${allNone ? "every action none" : "SOME ACTIONS NOT none"}`);

    const batches = [recommitReply.batchId, commit.reply.batchId].filter((id, i, all) => all.indexOf(id) === i);
    const undo: Step[] = [];
    for (const id of batches) {
      const step = await timed(() => undoBatch(app, admin, id));
      undo.push({ ms: step.ms, cpuMs: step.cpuMs, loop: step.loop });
    }
    log(`  undo: ${undo.map((u) => `${u.ms.toFixed(0)} ms`).join(" + ")}`);
    const after = await countRows(database);
    // Leave the set as the dashboard bench expects it: no dead rows, fresh statistics.
    const t0 = performance.now();
    await sql`vacuum (analyze)`.execute(database.db);
    log(`  vacuum (analyze) after the undo: ${(performance.now() - t0).toFixed(0)} ms`);
    const differences = COUNTED.filter((t) => before[t] !== after[t]).map((t) => `${t} ${before[t]} → ${after[t]}`);

    return {
      engine: database.engine,
      students: students.length,
      rows: { meetings: students.length * 2, progress: students.length, reflections: students.length },
      fileBytes,
      preview: { ...stepOf(preview), summary: preview.reply.summary, errors: preview.reply.errors, warnings: preview.reply.warnings },
      commit: { ...stepOf(commit), summary: commit.reply.summary, errors: commit.reply.errors },
      recommit: { ms: recommit.ms, cpuMs: recommit.cpuMs, loop: recommit.loop, allNone },
      undo,
      dashboard: { idle: idle.latency, preview: preview.latency, commit: commit.latency },
      memory: peak,
      gc: gcPauses,
      statistics: { refreshedByServer, estimatedRows: statsAfter.estimated, actualRows: statsAfter.actual, analyzeMs },
      restored: { ok: differences.length === 0, differences },
      unexpected,
    };
  } finally {
    await app.close();
    if (dashboardApp !== app) await dashboardApp.close();
  }
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

function send(app: FastifyInstance, endpoint: string, headers: Headers, form: FormData): Promise<Response> {
  return app.inject({ method: "POST", url: `/api/flag-upload/${endpoint}`, headers, payload: form });
}

function parseReply<T>(res: Response, step: string): T {
  if (res.statusCode !== 200) throw new Error(`${step}: ${res.statusCode} ${res.body.slice(0, 500)}`);
  return res.json<T>();
}

async function undoBatch(app: FastifyInstance, headers: Headers, id: number): Promise<ImportUndoResponse> {
  const res = await app.inject({ method: "POST", url: `/api/imports/${id}/undo`, headers });
  if (res.statusCode !== 200) throw new Error(`undo of import ${id}: ${res.statusCode} ${res.body.slice(0, 500)}`);
  return res.json<ImportUndoResponse>();
}

/** An interrupted earlier run leaves its batches behind: take them back, newest first. */
async function undoLeftovers(app: FastifyInstance, headers: Headers, log: (line: string) => void): Promise<void> {
  const res = await app.inject({ method: "GET", url: "/api/imports?limit=200", headers });
  if (res.statusCode !== 200) throw new Error(`GET /api/imports: ${res.statusCode} ${res.body.slice(0, 300)}`);
  const left = res
    .json<ImportsResponse>()
    .data.filter((b: ImportBatch) => b.cohortName === COHORT.cohortName && b.undoneAt === null)
    .sort((a, b) => b.id - a.id);
  for (const batch of left) {
    log(`  undoing import ${batch.id} left by an interrupted run`);
    await undoBatch(app, headers, batch.id);
  }
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
  app: FastifyInstance,
  dashboard: ReturnType<typeof dashboardLoop>,
  headers: Headers,
  endpoint: "preview-weekly-data" | "commit-weekly-data",
  form: FormData,
  students: number,
) {
  const { value, ...step } = await timed(() => dashboard.during(() => send(app, endpoint, headers, form)));
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

const stepOf = (s: Step): Step => ({ ms: s.ms, cpuMs: s.cpuMs, loop: s.loop });

function nothingChanged(result: ImportCommit): boolean {
  const s = result.summary;
  const counts = [s.newStudentsCreatedCount, s.attendanceRecordsCreated, s.attendanceRecordsUpdated, s.weeklyDataCreated, s.weeklyDataUpdated];
  return (
    counts.every((n) => n === 0) &&
    result.processedStudentDetails.every((d) => d.weeklyData.action === "none" && d.attendance.every((a) => a.action === "none"))
  );
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
function dashboardLoop(app: FastifyInstance, headers: Headers, cohortId: number) {
  const urls = ["/api/attendance/cohort-trends", `/api/attendance/cohort-trends?cohortId=${cohortId}`, "/api/students?page=1&limit=48"];
  return {
    async during<T>(work: () => Promise<T>): Promise<{ result: T; latency: DashboardLatency }> {
      const samples: number[] = [];
      // An object, not a let: the loop reads what the finally block below sets.
      const state = { done: false };
      const loop = (async () => {
        for (let i = 0; !state.done; i++) {
          const url = urls[i % urls.length] ?? "";
          const t0 = performance.now();
          const res = await app.inject({ method: "GET", url, headers });
          if (res.statusCode !== 200) throw new Error(`GET ${url} during the import: ${res.statusCode} ${res.body.slice(0, 200)}`);
          samples.push(performance.now() - t0);
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

/**
 * Peak resident memory of this process (the app and, embedded, the database's worker thread):
 * sampled every 50 ms, and the kernel's high-water mark, reset first where Linux allows it
 * (writing 5 to clear_refs) so that the seeding and the dashboard bench before do not count.
 */
function watchMemory(): { stop(): ImportBenchResult["memory"] } {
  let hwmReset = false;
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    hwmReset = true;
  } catch {
    // Not Linux, or not allowed: the sampled peak still stands.
  }
  const before = process.memoryUsage().rss;
  let peak = before;
  let heap = process.memoryUsage().heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  const timer = setInterval(sample, 50);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { beforeMb: mb(before), sampledPeakMb: mb(peak), hwmMb: readHwmMb(), hwmReset, heapPeakMb: mb(heap) };
    },
  };
}




function readHwmMb(): number | null {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}
