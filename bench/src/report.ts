import type { ApiBenchResult } from "./api-bench.js";
import type { DashboardLatency, ImportBenchResult } from "./import-bench.js";
import { LOOP_TICK_MS } from "./stats.js";

/** Longest the event loop may be blocked while the benchmarks run. */
export const EVENT_LOOP_LIMIT_MS = 20;

const ms = (v: number) => v.toFixed(1).padStart(7);

/** The results as a fixed-width table, misses marked. */
export function formatResult(result: ApiBenchResult, iterations: number): string[] {
  const width = Math.max(...result.scenarios.map((s) => s.name.length), 10);
  const lines = [
    `${result.engine === "embedded" ? "Embedded (PGlite worker)" : "PostgreSQL"}: ${iterations} iterations each after warm-up`,
    `  ${"request".padEnd(width)}     p50     p95     max  loop blocked  target (p95)`,
  ];
  for (const s of result.scenarios) {
    const verdict = s.target === null ? "   (no target)" : s.p95 <= s.target ? `  ≤ ${s.target} ms  ok` : `  ≤ ${s.target} ms  MISS`;
    lines.push(`  ${s.name.padEnd(width)} ${ms(s.p50)} ${ms(s.p95)} ${ms(s.max)} ${ms(s.loopBlockedMs).padStart(13)}  ${verdict}`);
  }
  const loopOk = result.eventLoopBlockedMs <= EVENT_LOOP_LIMIT_MS;
  lines.push(
    `  event loop blocked, longest over the requests with targets: ${result.eventLoopBlockedMs.toFixed(1)} ms (limit ${EVENT_LOOP_LIMIT_MS} ms)  ${loopOk ? "ok" : "MISS"}`,
    `    (longest interval between the monitor's ${LOOP_TICK_MS} ms ticks ${result.eventLoopMaxMs.toFixed(1)} ms, less the tick it waited for)`,
  );
  return lines;
}

export function missesOf(result: ApiBenchResult): string[] {
  const misses = result.scenarios
    .filter((s) => s.target !== null && s.p95 > s.target)
    .map((s) => `${result.engine}: ${s.name} p95 ${s.p95.toFixed(1)} ms > ${s.target} ms`);
  if (result.eventLoopBlockedMs > EVENT_LOOP_LIMIT_MS) {
    misses.push(`${result.engine}: event loop blocked ${result.eventLoopBlockedMs.toFixed(1)} ms > ${EVENT_LOOP_LIMIT_MS} ms`);
  }
  return misses;
}

/** Targets of the weekly import (issue 11, "Performance"): times on the embedded engine. */
export const IMPORT_TARGETS = { previewMs: 5000, commitMs: 10_000, memoryMb: 600, eventLoopMs: 50 } as const;

const sec = (v: number) => `${(v / 1000).toFixed(2)} s`.padStart(9);
const verdict = (ok: boolean) => (ok ? "ok" : "MISS");

function latency(t: DashboardLatency): string {
  return `p50 ${t.p50.toFixed(0)} ms, p95 ${t.p95.toFixed(0)} ms, max ${t.max.toFixed(0)} ms (${t.count} requests)`;
}

/** Longest event-loop block over every step of the import, in ms. */
function importLoopBlockedMs(r: ImportBenchResult): number {
  const steps = [r.preview, r.commit, r.coldCommit, r.recommit, ...r.undo];
  return Math.max(...steps.map((s) => s.loop.blockedMs));
}

/** The kernel's high-water mark counts only when it was reset before the import. */
function peakMb(r: ImportBenchResult): number {
  return r.memory.hwmReset ? Math.max(r.memory.sampledPeakMb, r.memory.hwmMb ?? 0) : r.memory.sampledPeakMb;
}

/** The weekly import's figures as a table, misses marked (times are judged on the embedded engine). */
export function formatImportResult(r: ImportBenchResult): string[] {
  const judged = r.engine === "embedded";
  const target = (limit: number, value: number) => (judged ? `≤ ${limit / 1000} s  ${verdict(value <= limit)}` : `(≤ ${limit / 1000} s is set for embedded)`);
  const s = r.commit.summary;
  const loop = importLoopBlockedMs(r);
  const peak = peakMb(r);
  const lines = [
    `Weekly import, ${r.engine === "embedded" ? "embedded (PGlite worker)" : "PostgreSQL"}: ${r.students.toLocaleString("en")} students ` +
      `(${r.rows.meetings.toLocaleString("en")} meeting, ${r.rows.progress.toLocaleString("en")} progress, ${r.rows.reflections.toLocaleString("en")} reflection rows; ${(r.fileBytes / 1024 / 1024).toFixed(1)} MB) into the 50,000-student set`,
    `  step                           time   CPU time  loop blocked  target`,
    `  preview                   ${sec(r.preview.ms)}  ${sec(r.preview.cpuMs)} ${ms(r.preview.loop.blockedMs).padStart(13)}  ${target(IMPORT_TARGETS.previewMs, r.preview.ms)}`,
    `  commit                    ${sec(r.commit.ms)}  ${sec(r.commit.cpuMs)} ${ms(r.commit.loop.blockedMs).padStart(13)}  ${target(IMPORT_TARGETS.commitMs, r.commit.ms)}`,
    `  undo, then commit again`,
    `    with no preview first     ${sec(r.coldCommit.ms)}  ${sec(r.coldCommit.cpuMs)} ${ms(r.coldCommit.loop.blockedMs).padStart(13)}  ${target(IMPORT_TARGETS.commitMs, r.coldCommit.ms)}`,
    `  same files again          ${sec(r.recommit.ms)}  ${sec(r.recommit.cpuMs)} ${ms(r.recommit.loop.blockedMs).padStart(13)}  refused, nothing to change: ${r.recommit.allNone ? "yes" : "NO"}`,
    ...r.undo.map(
      (u, i) => `  undo ${["(the commit)", "(newest batch)", "(commit, no preview)"][i] ?? ""}`.padEnd(28) + `${sec(u.ms)}  ${sec(u.cpuMs)} ${ms(u.loop.blockedMs).padStart(13)}`,
    ),
    `  (CPU time: this process's threads, the embedded engine's worker included; PostgreSQL's own work is not in it)`,
    `  event loop blocked, longest over these steps: ${loop.toFixed(1)} ms (limit ${IMPORT_TARGETS.eventLoopMs} ms)  ${verdict(loop <= IMPORT_TARGETS.eventLoopMs)}`,
    `  peak memory of the ${r.separateProcess ? "server process (a process of its own, as npm start runs it)" : "process (the app in the bench's process)"}: ${peak.toFixed(0)} MB, ${r.memory.beforeMb.toFixed(0)} MB before the preview (sampled every 50 ms ${r.memory.sampledPeakMb.toFixed(0)} MB, VmHWM ${r.memory.hwmMb === null ? "n/a" : `${r.memory.hwmMb.toFixed(0)} MB`}${r.memory.hwmReset ? ", reset before the import" : ", since the process started"}; main-thread JS heap at most ${r.memory.heapPeakMb.toFixed(0)} MB) (limit ${IMPORT_TARGETS.memoryMb} MB)  ${verdict(peak <= IMPORT_TARGETS.memoryMb)}`,
    `  main-thread garbage collection during preview and commit: longest pause ${r.gc.longestMs.toFixed(0)} ms, ${r.gc.count} collections, ${(r.gc.totalMs / 1000).toFixed(2)} s in all`,
    `  dashboard of another user (trends + students page, one after another):`,
    `    idle, before the import:  ${latency(r.dashboard.idle)}`,
    `    during the preview:       ${latency(r.dashboard.preview)}`,
    `    during the commit:        ${latency(r.dashboard.commit)}`,
    `    during the commit without a preview: ${latency(r.dashboard.coldCommit)}`,
    `  commit summary: ${s.totalStudentsInFiles} students, ${s.newStudentsCreatedCount} new; attendance ${s.attendanceRecordsCreated} created, ${s.attendanceRecordsUpdated} updated; weekly data ${s.weeklyDataCreated} created, ${s.weeklyDataUpdated} updated; ${r.commit.errors} row errors; preview ${r.preview.errors} errors, ${r.preview.warnings} warnings`,
    r.statistics.refreshedByServer
      ? "  statistics: the commit analysed the tables it wrote"
      : `  statistics: the commit did not analyse the tables it wrote${judged ? " (NEEDED: the embedded engine has no autovacuum)" : " (autovacuum's job on PostgreSQL)"}; the bench's analyze took ${((r.statistics.analyzeMs ?? 0) / 1000).toFixed(2)} s`,
    `    planner's estimate of attendance + weekly rows right after the commit: ${Math.round(r.statistics.estimatedRows).toLocaleString("en")} (really ${r.statistics.actualRows.toLocaleString("en")})`,
    r.restored.ok ? "  bench set restored by the undos: row counts as before" : `  bench set NOT restored: ${r.restored.differences.join(", ")}`,
  ];
  return lines;
}

export function importMissesOf(r: ImportBenchResult): string[] {
  const misses: string[] = [];
  const at = `${r.engine} import`;
  if (r.engine === "embedded") {
    if (r.preview.ms > IMPORT_TARGETS.previewMs) misses.push(`${at}: preview ${(r.preview.ms / 1000).toFixed(2)} s > 5 s`);
    if (r.commit.ms > IMPORT_TARGETS.commitMs) misses.push(`${at}: commit ${(r.commit.ms / 1000).toFixed(2)} s > 10 s`);
    if (r.coldCommit.ms > IMPORT_TARGETS.commitMs) misses.push(`${at}: commit with no preview first ${(r.coldCommit.ms / 1000).toFixed(2)} s > 10 s`);
    if (!r.statistics.refreshedByServer) misses.push(`${at}: the commit does not refresh statistics (no autovacuum on the embedded engine)`);
  }
  const loop = importLoopBlockedMs(r);
  if (loop > IMPORT_TARGETS.eventLoopMs) misses.push(`${at}: event loop blocked ${loop.toFixed(1)} ms > ${IMPORT_TARGETS.eventLoopMs} ms`);
  const peak = peakMb(r);
  if (peak > IMPORT_TARGETS.memoryMb) misses.push(`${at}: peak memory ${peak.toFixed(0)} MB > ${IMPORT_TARGETS.memoryMb} MB`);
  if (!r.recommit.allNone) misses.push(`${at}: committing the same files again was not refused as changing nothing`);
  for (const u of r.unexpected) misses.push(`${at}: ${u}`);
  if (!r.restored.ok) misses.push(`${at}: undo did not restore the bench set (${r.restored.differences.join(", ")})`);
  return misses;
}
