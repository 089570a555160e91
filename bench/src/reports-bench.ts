import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import type { DatabaseHandle } from "@tally/server/db/connection";
import type { FastifyInstance } from "fastify";
import { type Headers, mb, signIn, startApp } from "./bench-app.js";
import { BENCH_USERS, pickWorld } from "./dataset.js";
import { summarize, type Timing, watchEventLoop } from "./stats.js";

/** Targets of issue 13 ("Performance (bench)"). */
export const REPORT_TARGETS = { schoolPdfMs: 500, allSchoolsPdfMs: 1000, csvGrowthMb: 100, eventLoopMs: 50 } as const;
const CSV_RUNS = 3;
/** How often the CSV's memory is sampled (the brief: every 20 ms). */
const MEMORY_SAMPLE_MS = 20;

export interface PdfScenarioResult extends Timing {
  name: string;
  target: number;
  /** Longest the event loop was blocked while these PDFs were built, in ms. */
  loopBlockedMs: number;
  bytes: number;
}

export interface CsvRun {
  ms: number;
  bytes: number;
  rows: number;
  /** Peak less the figure just before the request, sampled every 20 ms. */
  rssGrowthMb: number;
  heapGrowthMb: number;
  rssBeforeMb: number;
  heapBeforeMb: number;
  loopBlockedMs: number;
}

export interface ReportsBenchResult {
  engine: string;
  iterations: number;
  /** Students of the school and cohort the school-and-cohort PDF covers. */
  schoolCohortStudents: number;
  pdf: PdfScenarioResult[];
  csv: { runs: CsvRun[]; bom: boolean; expectedRows: number };
}

/**
 * The reports of issue 13 through the real app: the PDF of one school and cohort as the admin
 * and as the school user, the all-schools PDF (students table capped at 100), then the CSV of
 * every student streamed over a real socket while the process's memory is sampled.
 */
export async function runReportsBench(
  database: DatabaseHandle,
  opts: { iterations: number; warmup: number; log: (line: string) => void },
): Promise<ReportsBenchResult> {
  const log = opts.log;
  const app = await startApp(database);
  try {
    const world = await pickWorld(database);
    const admin = await signIn(app, BENCH_USERS.admin);
    const school = await signIn(app, BENCH_USERS.school);
    const schoolId = world.schoolIds[0] ?? 0;
    const schoolCohort = `schoolId=${schoolId}&cohortId=${world.cohortId}`;
    const schoolCohortStudents = await studentCount(app, admin, schoolCohort);
    const expectedRows = await studentCount(app, admin, "");
    const scenarios: Array<{ name: string; target: number; headers: Headers; query: string }> = [
      { name: "PDF school + cohort (admin)", target: REPORT_TARGETS.schoolPdfMs, headers: admin, query: schoolCohort },
      { name: "PDF school + cohort (school user)", target: REPORT_TARGETS.schoolPdfMs, headers: school, query: schoolCohort },
      { name: "PDF all schools (admin)", target: REPORT_TARGETS.allSchoolsPdfMs, headers: admin, query: "" },
    ];
    const pdf: PdfScenarioResult[] = [];
    for (const s of scenarios) {
      const url = `/api/pdf-reports/generate?${s.query ? `${s.query}&` : ""}includeStudents=true&studentLimit=100`;
      let bytes = 0;
      const once = async () => {
        const res = await app.inject({ method: "GET", url, headers: s.headers });
        if (res.statusCode !== 200 || !String(res.headers["content-type"]).startsWith("application/pdf")) {
          throw new Error(`GET ${url} as ${s.name}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        }
        bytes = res.rawPayload.length;
      };
      for (let i = 0; i < opts.warmup; i++) {
        await forgetDownloads(database);
        await once();
      }
      const loop = watchEventLoop();
      const samples: number[] = [];
      for (let i = 0; i < opts.iterations; i++) {
        await forgetDownloads(database);
        const t0 = performance.now();
        await once();
        samples.push(performance.now() - t0);
      }
      const delay = loop.stop();
      const timing = summarize(samples);
      pdf.push({ name: s.name, target: s.target, ...timing, loopBlockedMs: delay.blockedMs, bytes });
      log(`  ${s.name}: p50 ${timing.p50.toFixed(0)} ms, p95 ${timing.p95.toFixed(0)} ms, loop blocked ${delay.blockedMs.toFixed(0)} ms`);
    }

    // Over a socket, read and thrown away a chunk at a time as a browser saving the file does:
    // inject would hold the whole body in this process and count it as the server's memory.
    await app.listen({ host: "127.0.0.1", port: 0 });
    const port = (app.server.address() as AddressInfo).port;
    const runs: CsvRun[] = [];
    let bom = false;
    for (let i = 0; i < CSV_RUNS; i++) {
      await forgetDownloads(database);
      const run = await csvRun(port, admin);
      bom = run.bom;
      runs.push(run.result);
      log(`  CSV of all students: ${run.result.ms.toFixed(0)} ms, ${run.result.rows} rows, RSS +${run.result.rssGrowthMb.toFixed(0)} MB, heap +${run.result.heapGrowthMb.toFixed(0)} MB`);
    }
    return { engine: database.engine, iterations: opts.iterations, schoolCohortStudents, pdf, csv: { runs, bom, expectedRows } };
  } finally {
    await app.close();
  }
}

/**
 * Each user may take 30 downloads a minute (the server's download_log): the bench takes 35
 * PDFs a scenario, so it forgets the ones counted so far before each, outside the timing. The
 * counting itself stays in every timed request.
 */
async function forgetDownloads(database: DatabaseHandle): Promise<void> {
  await database.db.deleteFrom("download_log").execute();
}

async function studentCount(app: FastifyInstance, headers: Headers, query: string): Promise<number> {
  const res = await app.inject({ method: "GET", url: `/api/reports/data?${query}`, headers });
  if (res.statusCode !== 200) throw new Error(`GET /api/reports/data?${query}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res.json<{ summary: { studentCount: number } }>().summary.studentCount;
}

function csvRun(port: number, headers: Headers): Promise<{ result: CsvRun; bom: boolean }> {
  const before = process.memoryUsage();
  let rssPeak = before.rss;
  let heapPeak = before.heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    rssPeak = Math.max(rssPeak, m.rss);
    heapPeak = Math.max(heapPeak, m.heapUsed);
  };
  const timer = setInterval(sample, MEMORY_SAMPLE_MS);
  const loop = watchEventLoop();
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: "/api/reports/students.csv", headers: { ...headers } }, (res) => {
      if (res.statusCode !== 200) {
        clearInterval(timer);
        loop.stop();
        reject(new Error(`GET /api/reports/students.csv: ${res.statusCode}`));
        res.resume();
        return;
      }
      let bytes = 0;
      let lines = 0;
      let bom = false;
      res.on("data", (chunk: Buffer) => {
        if (bytes === 0) bom = chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf;
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      res.on("end", () => {
        const ms = performance.now() - t0;
        clearInterval(timer);
        sample();
        const delay = loop.stop();
        resolve({
          bom,
          result: {
            ms,
            bytes,
            // Less the header line (the generated names hold no line breaks).
            rows: lines - 1,
            rssGrowthMb: mb(rssPeak - before.rss),
            heapGrowthMb: mb(heapPeak - before.heapUsed),
            rssBeforeMb: mb(before.rss),
            heapBeforeMb: mb(before.heapUsed),
            loopBlockedMs: delay.blockedMs,
          },
        });
      });
      res.on("error", reject);
    });
    req.on("error", (err) => {
      clearInterval(timer);
      loop.stop();
      reject(err);
    });
    req.end();
  });
}

const ms1 = (v: number) => v.toFixed(1).padStart(7);
const verdict = (ok: boolean) => (ok ? "ok" : "MISS");

const pdfLoopMs = (r: ReportsBenchResult) => Math.max(0, ...r.pdf.map((p) => p.loopBlockedMs));
const csvGrowthMb = (r: ReportsBenchResult) => Math.max(0, ...r.csv.runs.map((c) => c.rssGrowthMb));

export function formatReportsResult(r: ReportsBenchResult): string[] {
  const width = Math.max(...r.pdf.map((p) => p.name.length));
  const loop = pdfLoopMs(r);
  const growth = csvGrowthMb(r);
  const heap = Math.max(0, ...r.csv.runs.map((c) => c.heapGrowthMb));
  const csvTimes = summarize(r.csv.runs.map((c) => c.ms));
  const rows = r.csv.runs.map((c) => c.rows);
  const first = r.csv.runs[0];
  return [
    `Reports, ${r.engine === "embedded" ? "embedded (PGlite worker)" : "PostgreSQL"}: ${r.iterations} iterations each after warm-up (students table capped at 100; the school and cohort hold ${r.schoolCohortStudents} students)`,
    `  ${"request".padEnd(width)}     p50     p95     max  loop blocked  size    target (p95)`,
    ...r.pdf.map(
      (p) =>
        `  ${p.name.padEnd(width)} ${ms1(p.p50)} ${ms1(p.p95)} ${ms1(p.max)} ${ms1(p.loopBlockedMs).padStart(13)}  ${`${(p.bytes / 1024).toFixed(0)} kB`.padEnd(7)} ≤ ${p.target} ms  ${verdict(p.p95 <= p.target)}`,
    ),
    `  event loop blocked while the PDFs were built, longest: ${loop.toFixed(1)} ms (limit ${REPORT_TARGETS.eventLoopMs} ms)  ${verdict(loop <= REPORT_TARGETS.eventLoopMs)}`,
    `  CSV of all students (streamed over a socket, ${r.csv.runs.length} runs): ${rows.join(" / ")} rows of ${r.csv.expectedRows} expected, ${first ? (first.bytes / 1024 / 1024).toFixed(1) : "?"} MB, BOM ${r.csv.bom ? "yes" : "NO"}`,
    `    time p50 ${csvTimes.p50.toFixed(0)} ms, max ${csvTimes.max.toFixed(0)} ms; event loop blocked at most ${Math.max(0, ...r.csv.runs.map((c) => c.loopBlockedMs)).toFixed(1)} ms`,
    `    memory growth of the process (sampled every ${MEMORY_SAMPLE_MS} ms, largest of the runs): RSS +${growth.toFixed(0)} MB (from ${first?.rssBeforeMb.toFixed(0) ?? "?"} MB), JS heap +${heap.toFixed(0)} MB (limit ${REPORT_TARGETS.csvGrowthMb} MB on RSS)  ${verdict(growth <= REPORT_TARGETS.csvGrowthMb)}`,
  ];
}

export function reportsMissesOf(r: ReportsBenchResult): string[] {
  const at = `${r.engine} reports`;
  const misses = r.pdf.filter((p) => p.p95 > p.target).map((p) => `${at}: ${p.name} p95 ${p.p95.toFixed(0)} ms > ${p.target} ms`);
  const loop = pdfLoopMs(r);
  if (loop > REPORT_TARGETS.eventLoopMs) misses.push(`${at}: event loop blocked ${loop.toFixed(1)} ms > ${REPORT_TARGETS.eventLoopMs} ms while PDFs were built`);
  const growth = csvGrowthMb(r);
  if (growth > REPORT_TARGETS.csvGrowthMb) misses.push(`${at}: CSV memory growth ${growth.toFixed(0)} MB > ${REPORT_TARGETS.csvGrowthMb} MB`);
  const wrong = r.csv.runs.filter((c) => c.rows !== r.csv.expectedRows);
  if (wrong.length > 0) misses.push(`${at}: CSV had ${wrong.map((c) => c.rows).join(", ")} rows, ${r.csv.expectedRows} expected`);
  if (!r.csv.bom) misses.push(`${at}: CSV without a byte-order mark`);
  return misses;
}
