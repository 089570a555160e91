import { type ConfirmFlagImportResponse, type ProcessFlagsResponse, weekFirstDay } from "@tally/contract";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { DatabaseHandle } from "@tally/server/db/connection";
import { hashPassword } from "@tally/server/lib/password-hash";
import { sql } from "kysely";
import { type BenchEngine, type GcPauses, type Headers, type Step, statementTimer } from "./bench-app.js";
import { type BenchTarget, signInTo, stepOf, stepOn, withTarget } from "./bench-target.js";
import type { HttpReply } from "./server-process.js";
import { BENCH_PASSWORD, pickWorld } from "./dataset.js";
import { type FlagFiles, generateFlagFiles, pickFlagStudents } from "./flag-files.js";

/** The issue's week: 5,000 students, three CRM sessions each (15,000 rows). */
export const FLAG_STUDENTS = 5_000;
const WEEK = 3;
/** The flag uploader is the super admins' alone; the bench set's other users are not. */
export const BENCH_SUPER_ADMIN = { username: "bench-super", email: "bench-super@bench.tally.test" } as const;

/** Targets of issue 12 ("Performance (bench)"): times on the embedded engine. */
export const FLAG_TARGETS = { processMs: 3000, confirmMs: 3000, eventLoopMs: 50 } as const;

export interface FlagsBenchResult {
  engine: string;
  students: number;
  rows: { progress: number; reflections: number; crm: number };
  fileBytes: number;
  process: Step & { matched: number; unmatched: number; flagged: number; validationErrors: number };
  confirm: Step & {
    summary: ConfirmFlagImportResponse["summary"];
    /** The JSON body timed, and the body the page sends (every field of every row). */
    bodyBytes: number;
    pageBodyBytes: number;
    /** The server's answer when it refused the page's body (e.g. 413 past its body limit); null = accepted. */
    pageBodyRefused: string | null;
  };
  reconfirm: Step & { summary: ConfirmFlagImportResponse["summary"]; nothingChanged: boolean };
  undo: Step[];
  /** Benefit Assignment IDs of the chosen students put back by the undo (before the bench's own clean-up). */
  benefitIdsRestoredByUndo: boolean;
  /** Weekly data of the cohort's week and the students' Benefit Assignment IDs as before the run. */
  restored: { ok: boolean; differences: string[] };
  /** Main-thread garbage collections of the server during process-flags and the timed confirm. */
  gc: GcPauses;
  /** Whether the server ran in a process of its own (its event loop and CPU time measured alone). */
  separate: boolean;
}

/**
 * The flag uploader of issue 12 through the real server (the same multipart body and JSON the
 * page sends): process the three reports, confirm every row, confirm the same run again, then
 * undo both batches (newest first) so the bench set is left as it was. The server runs in a
 * process of its own (bench-target.ts), so its event loop and CPU time are measured alone; with
 * statements timed, the app runs in this process. On the embedded engine this process lets go
 * of the data folder while the server runs, and prepares and checks the set around that.
 */
export async function runFlagsBench(
  engine: BenchEngine,
  opts: { log: (line: string) => void; backupFile: string; statements?: boolean },
): Promise<FlagsBenchResult> {
  const log = opts.log;
  const timer = opts.statements ? statementTimer() : null;
  const withServer = <T>(fn: (target: BenchTarget, admin: Headers) => Promise<T>): Promise<T> =>
    withTarget(engine, { log, timer }, async (target) => fn(target, await signInTo(target, BENCH_SUPER_ADMIN.username)));

  await ensureSuperAdmin(engine.database);
  const world = await pickWorld(engine.database);
  const cohortId = world.cohortId;
  const leftovers = await findLeftovers(engine.database, cohortId);
  if (leftovers.length > 0) {
    await withServer(async (target, admin) => {
      for (const id of leftovers) {
        log(`  undoing flag import ${id} left by an interrupted run`);
        await undoBatch(target, admin, id);
      }
    });
  }
  await clearBenchBenefitIds(engine.database);
  await restoreBackup(engine.database, opts.backupFile, log);
  const before = await snapshot(engine.database, cohortId);

  const cohort = await engine.database.db.selectFrom("cohorts").select("start_date").where("id", "=", cohortId).executeTakeFirstOrThrow();
  const weekStart = weekFirstDay(isoDate(cohort.start_date), WEEK);
  const students = await pickFlagStudents(engine.database, cohortId, FLAG_STUDENTS);
  const files = generateFlagFiles(students, weekStart);
  // The bench set's students already hold IDs of their own ("BA-…"): the run takes them away
  // (kept in a file, in case it is interrupted) so the CRM's IDs are a first match and stored,
  // the confirm's heavier path, and puts them back at the end.
  const ids = students.map((s) => s.id);
  const originals = await engine.database.db.selectFrom("students").select(["id", "benefit_assignment_id"]).where("id", "in", ids).execute();
  writeFileSync(opts.backupFile, JSON.stringify(originals.map((o) => [o.id, o.benefit_assignment_id])));
  await engine.database.db.updateTable("students").set({ benefit_assignment_id: null }).where("id", "in", ids).execute();
  const fileBytes = Object.values(files).reduce((n, f: { text: string }) => n + Buffer.byteLength(f.text), 0);
  const rows = { progress: students.length, reflections: students.length, crm: students.length * 3 };
  log(`  flag files: ${students.length} students, ${rows.crm} CRM rows, ${(fileBytes / 1024 / 1024).toFixed(1)} MB in three CSVs`);

  const steps = await withServer(async (target, admin) => {
    // The body is built before and the reply parsed after the timing: a browser does that work.
    const form = flagForm(files, cohortId);
    timer?.reset();
    const processed = await stepOn(target, () => target.request("POST", "/api/flag-upload/process-flags", { headers: admin, body: form }));
    const run = parse<ProcessFlagsResponse>(processed.value, "process-flags");
    log(`  process-flags: ${processed.ms.toFixed(0)} ms, event loop blocked ${processed.loop.blockedMs.toFixed(0)} ms`);
    timer?.print("process-flags", log);
    if (!run.runId) throw new Error(`process-flags gave no run: ${run.message} ${run.validationErrors.slice(0, 3).join("; ")}`);

    // First the body the page sends (every row as the server sent it); if the server refuses its
    // size, the bench says so and confirms with the fields the contract requires instead.
    const pageBody = { runId: run.runId, cohortId, currentWeek: WEEK, verificationData: run.data };
    const pageBodyBytes = Buffer.byteLength(JSON.stringify(pageBody));
    const asPage = await confirm(target, admin, pageBody);
    let body: object = pageBody;
    let pageBodyRefused: string | null = null;
    if (asPage.statusCode !== 200) {
      pageBodyRefused = `${asPage.statusCode} ${asPage.body.slice(0, 200)}`;
      log(`  confirm with the page's body (${(pageBodyBytes / 1024 / 1024).toFixed(2)} MB) refused: ${pageBodyRefused}`);
      const verificationData = run.data.map((r) => ({ studentId: r.studentId, benefit_assignment_id: r.benefit_assignment_id, calculated_flags: r.calculated_flags }));
      body = { ...pageBody, verificationData };
    } else {
      // It went through untimed: undo it, so the timed confirm below starts from the same state.
      await undoBatch(target, admin, asPage.json<ConfirmFlagImportResponse>().batchId);
    }
    const bodyBytes = Buffer.byteLength(JSON.stringify(body));
    timer?.reset();
    const confirmed = await stepOn(target, () => confirm(target, admin, body));
    const first = parse<ConfirmFlagImportResponse>(confirmed.value, "confirm-flag-import");
    log(`  confirm-flag-import: ${confirmed.ms.toFixed(0)} ms, event loop blocked ${confirmed.loop.blockedMs.toFixed(0)} ms`);
    timer?.print("confirm", log);
    const reconfirmed = await stepOn(target, () => confirm(target, admin, body));
    const second = parse<ConfirmFlagImportResponse>(reconfirmed.value, "confirm-flag-import again");
    const s2 = second.summary;
    const nothingChanged = s2.weeklyDataCreated === 0 && s2.weeklyDataUpdated === 0 && s2.benefitAssignmentIdsStored === 0;
    log(`  same run again: ${reconfirmed.ms.toFixed(0)} ms, ${nothingChanged ? "nothing changed" : "SOMETHING CHANGED"}`);

    const undo: Step[] = [];
    timer?.reset();
    for (const batchId of [second.batchId, first.batchId].filter((id, i, all) => all.indexOf(id) === i)) {
      undo.push(stepOf(await stepOn(target, () => undoBatch(target, admin, batchId))));
    }
    log(`  undo: ${undo.map((u) => `${u.ms.toFixed(0)} ms`).join(" + ")}`);
    timer?.print("undos", log);
    const readings = [processed.reading, confirmed.reading];
    const gc: GcPauses = {
      longestMs: Math.max(...readings.map((r) => r.gc.longestMs)),
      totalMs: readings.reduce((n, r) => n + r.gc.totalMs, 0),
      count: readings.reduce((n, r) => n + r.gc.count, 0),
    };
    return {
      process: {
        ...stepOf(processed),
        matched: run.data.length,
        unmatched: run.unmatched.length,
        flagged: run.data.filter((r) => r.calculated_flags.length > 0).length,
        validationErrors: run.validationErrors.length,
      },
      confirm: { ...stepOf(confirmed), summary: first.summary, bodyBytes, pageBodyBytes, pageBodyRefused },
      reconfirm: { ...stepOf(reconfirmed), summary: s2, nothingChanged },
      undo,
      gc,
      separate: target.separate,
    };
  });

  // The undo must have put back what the students held before the confirm: no ID at all.
  const leftAfterUndo = await engine.database.db
    .selectFrom("students")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("id", "in", ids)
    .where("benefit_assignment_id", "is not", null)
    .executeTakeFirstOrThrow();
  const benefitIdsRestoredByUndo = Number(leftAfterUndo.n) === 0;
  // Whatever the undo left, the bench's own IDs go and the students' own come back.
  await clearBenchBenefitIds(engine.database);
  await restoreBackup(engine.database, opts.backupFile, log, false);
  const after = await snapshot(engine.database, cohortId);
  const differences = (Object.keys(before) as (keyof Snapshot)[]).filter((k) => before[k] !== after[k]).map((k) => `${k} differs`);

  return {
    engine: engine.database.engine,
    students: students.length,
    rows,
    fileBytes,
    ...steps,
    benefitIdsRestoredByUndo,
    restored: { ok: differences.length === 0, differences },
  };
}

/** The bench's super admin, added through the database like the other bench users (once). */
async function ensureSuperAdmin(database: DatabaseHandle): Promise<void> {
  const db = database.db;
  const found = await db.selectFrom("users").select("id").where("username", "=", BENCH_SUPER_ADMIN.username).executeTakeFirst();
  if (found) return;
  await db
    .insertInto("users")
    .values({
      username: BENCH_SUPER_ADMIN.username,
      email: BENCH_SUPER_ADMIN.email,
      role: "super_admin",
      school_id: null,
      password_hash: await hashPassword(BENCH_PASSWORD),
      is_active: true,
      email_verified: true,
    })
    .execute();
}

function flagForm(files: FlagFiles, cohortId: number): FormData {
  const form = new FormData();
  form.append("cohortId", String(cohortId));
  form.append("currentWeek", String(WEEK));
  for (const [field, file] of Object.entries(files) as [string, { name: string; text: string }][]) {
    form.append(field, new File([file.text], file.name, { type: "text/csv" }));
  }
  return form;
}

function confirm(target: BenchTarget, headers: Headers, body: object): Promise<HttpReply> {
  return target.request("POST", "/api/flag-upload/confirm-flag-import", { headers, body });
}

function parse<T>(res: HttpReply, step: string): T {
  if (res.statusCode !== 200) throw new Error(`${step}: ${res.statusCode} ${res.body.slice(0, 500)}`);
  return res.json<T>();
}

async function undoBatch(target: BenchTarget, headers: Headers, id: number): Promise<void> {
  const res = await target.request("POST", `/api/imports/${id}/undo`, { headers });
  if (res.statusCode !== 200) throw new Error(`undo of import ${id}: ${res.statusCode} ${res.body.slice(0, 500)}`);
}

/** The flag batches an interrupted earlier run left behind (to take back, newest first). */
async function findLeftovers(database: DatabaseHandle, cohortId: number): Promise<number[]> {
  const rows = await database.db
    .selectFrom("import_batches as b")
    .innerJoin("users as u", "u.id", "b.user_id")
    .select("b.id")
    .where("b.cohort_id", "=", cohortId)
    .where("b.kind", "=", "flags")
    .where("b.week_number", "=", WEEK)
    .where("b.undone_at", "is", null)
    .where("u.username", "=", BENCH_SUPER_ADMIN.username)
    .orderBy("b.id", "desc")
    .execute();
  return rows.map((r) => r.id);
}

/** Puts back the students' own Benefit Assignment IDs the run took away, then drops the file. */
async function restoreBackup(database: DatabaseHandle, file: string, log: (line: string) => void, leftover = true): Promise<void> {
  if (!existsSync(file)) return;
  const pairs = JSON.parse(readFileSync(file, "utf8")) as Array<[number, string | null]>;
  if (leftover) log(`  putting back ${pairs.length} Benefit Assignment IDs an interrupted run took away`);
  for (let i = 0; i < pairs.length; i += 2000) {
    const chunk = JSON.stringify(pairs.slice(i, i + 2000));
    await sql`update students s set benefit_assignment_id = p->>1
      from json_array_elements(${chunk}::json) p where s.id = (p->>0)::int`.execute(database.db);
  }
  rmSync(file);
}

async function clearBenchBenefitIds(database: DatabaseHandle): Promise<void> {
  await sql`update students set benefit_assignment_id = null where benefit_assignment_id like 'BENCH-BA-%'`.execute(database.db);
}

interface Snapshot {
  weeklyRows: string;
  weeklyDigest: string;
  benefitIds: string;
}

/** The cohort's weekly data of the bench week and every Benefit Assignment ID, as digests. */
async function snapshot(database: DatabaseHandle, cohortId: number): Promise<Snapshot> {
  const { rows } = await sql<{ n: string; digest: string | null; ids: string | null }>`
    select (select count(*) from weekly_data where cohort_id = ${cohortId} and week_number = ${WEEK})::text as n,
           (select md5(string_agg(id::text || ':' || flags::text || ':' || coalesce(reflection, '') || ':' || coalesce(hours_reported::text, ''), ',' order by id))
              from weekly_data where cohort_id = ${cohortId} and week_number = ${WEEK}) as digest,
           (select md5(string_agg(id::text || ':' || benefit_assignment_id, ',' order by id))
              from students where benefit_assignment_id is not null) as ids`.execute(database.db);
  const r = rows[0];
  return { weeklyRows: r?.n ?? "", weeklyDigest: r?.digest ?? "", benefitIds: r?.ids ?? "" };
}


const isoDate = (d: Date | string) => (typeof d === "string" ? d.slice(0, 10) : d.toISOString().slice(0, 10));


const sec = (v: number) => `${(v / 1000).toFixed(2)} s`.padStart(9);
const ms1 = (v: number) => v.toFixed(1).padStart(7);
const mbText = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
const verdict = (ok: boolean) => (ok ? "ok" : "MISS");

function loopBlockedMs(r: FlagsBenchResult): number {
  return Math.max(r.process.loop.blockedMs, r.confirm.loop.blockedMs, r.reconfirm.loop.blockedMs, ...r.undo.map((u) => u.loop.blockedMs));
}

/** The flag uploader's figures as a table, misses marked (times are judged on the embedded engine). */
export function formatFlagsResult(r: FlagsBenchResult): string[] {
  const judged = r.engine === "embedded";
  const target = (limit: number, value: number) => (judged ? `≤ ${limit / 1000} s  ${verdict(value <= limit)}` : `(≤ ${limit / 1000} s is set for embedded)`);
  const s = r.confirm.summary;
  const loop = loopBlockedMs(r);
  return [
    `Flag uploader, ${judged ? "embedded (PGlite worker)" : "PostgreSQL"}: ${r.students.toLocaleString("en")} students ` +
      `(${r.rows.crm.toLocaleString("en")} CRM, ${r.rows.progress.toLocaleString("en")} progress, ${r.rows.reflections.toLocaleString("en")} reflection rows; ${(r.fileBytes / 1024 / 1024).toFixed(1)} MB) in the 50,000-student set`,
    `  step                           time   CPU time  loop blocked  target`,
    `  process-flags             ${sec(r.process.ms)}  ${sec(r.process.cpuMs)} ${ms1(r.process.loop.blockedMs).padStart(13)}  ${target(FLAG_TARGETS.processMs, r.process.ms)}`,
    `  confirm-flag-import       ${sec(r.confirm.ms)}  ${sec(r.confirm.cpuMs)} ${ms1(r.confirm.loop.blockedMs).padStart(13)}  ${target(FLAG_TARGETS.confirmMs, r.confirm.ms)}`,
    `  same run again            ${sec(r.reconfirm.ms)}  ${sec(r.reconfirm.cpuMs)} ${ms1(r.reconfirm.loop.blockedMs).padStart(13)}  nothing changed: ${r.reconfirm.nothingChanged ? "yes" : "NO"}`,
    ...r.undo.map((u, i) => `  undo ${i === 0 ? "(newest batch)" : "(the first confirm)"}`.padEnd(28) + `${sec(u.ms)}  ${sec(u.cpuMs)} ${ms1(u.loop.blockedMs).padStart(13)}`),
    r.separate
      ? `  (the server in a process of its own, as npm start runs it; CPU time: its threads, the embedded engine's worker included; PostgreSQL's own work is not in it)`
      : `  (the app in the bench's process, statements timed: the bench's own work shares its event loop and CPU time)`,
    `  event loop blocked, longest over these steps: ${loop.toFixed(1)} ms (limit ${FLAG_TARGETS.eventLoopMs} ms)  ${verdict(loop <= FLAG_TARGETS.eventLoopMs)}`,
    `  main-thread garbage collection during process and confirm: longest pause ${r.gc.longestMs.toFixed(0)} ms, ${r.gc.count} collections, ${(r.gc.totalMs / 1000).toFixed(2)} s in all`,
    `  process: ${r.process.matched} students matched, ${r.process.flagged} with flags, ${r.process.unmatched} unmatched rows, ${r.process.validationErrors} validation errors`,
    `  confirm: weekly data ${s.weeklyDataCreated} created, ${s.weeklyDataUpdated} updated, ${s.unchanged} unchanged; ${s.benefitAssignmentIdsStored} Benefit Assignment IDs stored, ${s.benefitAssignmentIdsHeldElsewhere} held elsewhere`,
    r.confirm.pageBodyRefused
      ? `  confirm with the body the page sends (${mbText(r.confirm.pageBodyBytes)}): REFUSED ${r.confirm.pageBodyRefused}; timed with the contract's required fields only (${mbText(r.confirm.bodyBytes)})`
      : `  confirm body as the page sends it: ${mbText(r.confirm.bodyBytes)}, accepted`,
    `  Benefit Assignment IDs: the students' own taken away for the run and put back after; the undo took the stored ones back: ${r.benefitIdsRestoredByUndo ? "yes" : "NO (the bench cleared them)"}`,
    r.restored.ok ? "  bench set restored: weekly data of the week and Benefit Assignment IDs as before" : `  bench set NOT restored: ${r.restored.differences.join(", ")}`,
  ];
}

export function flagsMissesOf(r: FlagsBenchResult): string[] {
  const at = `${r.engine} flag uploader`;
  const misses: string[] = [];
  if (r.engine === "embedded") {
    if (r.process.ms > FLAG_TARGETS.processMs) misses.push(`${at}: process-flags ${(r.process.ms / 1000).toFixed(2)} s > 3 s`);
    if (r.confirm.ms > FLAG_TARGETS.confirmMs) misses.push(`${at}: confirm-flag-import ${(r.confirm.ms / 1000).toFixed(2)} s > 3 s`);
  }
  const loop = loopBlockedMs(r);
  if (loop > FLAG_TARGETS.eventLoopMs) misses.push(`${at}: event loop blocked ${loop.toFixed(1)} ms > ${FLAG_TARGETS.eventLoopMs} ms`);
  if (r.process.matched !== r.students || r.process.unmatched !== 0) misses.push(`${at}: ${r.process.matched} of ${r.students} matched, ${r.process.unmatched} unmatched rows`);
  if (r.confirm.pageBodyRefused) misses.push(`${at}: confirm with the page's body (${mbText(r.confirm.pageBodyBytes)}) refused: ${r.confirm.pageBodyRefused.slice(0, 80)}`);
  if (!r.reconfirm.nothingChanged) misses.push(`${at}: confirming the same run again changed something`);
  if (!r.benefitIdsRestoredByUndo) misses.push(`${at}: the undo did not put the Benefit Assignment IDs back`);
  if (!r.restored.ok) misses.push(`${at}: bench set not restored (${r.restored.differences.join(", ")})`);
  return misses;
}
