import { cpus, loadavg } from "node:os";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { alertsMissesOf, type AlertsBenchResult, runAlertsBench } from "./alerts-bench.js";
import { type ApiBenchResult, runApiBench } from "./api-bench.js";
import { runBrowserBench } from "./browser-dashboard.js";
import type { BenchEngine } from "./bench-app.js";
import { openEmbeddedBenchDatabase, openPostgresBenchDatabase } from "./dataset.js";
import { type FlagsBenchResult, flagsMissesOf, formatFlagsResult, runFlagsBench } from "./flags-bench.js";
import { type ImportBenchResult, runImportBench } from "./import-bench.js";
import { formatLoadResult, loadMissesOf } from "./load-report.js";
import { type LoadBenchResult, runLoadBench } from "./load-bench.js";
import { formatLiveResult, type LiveBenchResult, liveMissesOf, runNotificationsBench } from "./notifications-bench.js";
import { formatImportResult, formatResult, importMissesOf, missesOf } from "./report.js";
import { formatReportsResult, type ReportsBenchResult, reportsMissesOf, runReportsBench } from "./reports-bench.js";
import { idleEventLoop } from "./stats.js";

const HELP = `npm run bench [-- options]
  --iterations N   timed iterations per request (default 200)
  --browser        also time the dashboard in Chromium (sign-in to chart and first cards), and run
                   Lighthouse 12 (mobile) on /login and the signed-in dashboard; its figures are
                   written into docs/performance.md
  --browser-only   only the browser timing and Lighthouse
  --lighthouse-only  only Lighthouse (/login and the signed-in dashboard)
  --no-embedded    skip the embedded database
  --only TEXT      only the dashboard requests whose name contains TEXT, or one of A|B (while tuning one query;
                   the import, flag-uploader and report benches are skipped then, unless --import)
  --dashboard-only only the dashboard requests (with --only TEXT: those named so), on each engine
  --import         also the weekly import (the default, except with --only and --browser-only)
  --no-import      skip the weekly import
  --import-only    only the weekly import: preview, commit, the same files again, undo
  --import-statements  also list the import's slowest SQL statements (preview and commit)
  --flags-only     only the flag uploader (issue 12: process and confirm a 15,000-row CRM week;
                   with --reports-only: both, without the dashboard requests)
  --alerts-only    only the early warning (issue 30: rules evaluated for a week's cohort and for
                   every cohort, event loop watched; the call list's first page, admin and school user)
  --reports-only   only the reports (issue 13: PDFs and the CSV of every student)
  --load-only      only the load run (issue 15: 200 signed-in users' dashboard traffic at rising rates
                   against the built server; embedded: one instance; PostgreSQL: two behind a
                   round-robin balancer, one of them killed mid-run)
  --load           also the load run (not part of a plain run: it takes a few minutes per engine)
  --load-rates A,B  with the load run, these rates (requests/s) instead of 25, 50, 100, 200 … 1000
  --soak-minutes N with the load run, a soak at 60 % of the best rate for N minutes (issue 15: 10)
  --live-only      only the live connection (issue 14: 2,000 open event streams, memory and FORCE_LOGOUT
                   delivery; the server runs as child processes on a fresh database of its own)
  --flags-statements  with the flag uploader, list the slowest SQL statements of process, confirm and undo
  --report-iterations N  timed PDFs per request (default 30)
Environment: BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/tally_bench also benchmarks PostgreSQL
(the database is created and seeded on first use).`;

const log = (line: string) => console.log(line);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      iterations: { type: "string", default: "200" },
      browser: { type: "boolean", default: false },
      "browser-only": { type: "boolean", default: false },
      "lighthouse-only": { type: "boolean", default: false },
      "no-embedded": { type: "boolean", default: false },
      only: { type: "string" },
      "dashboard-only": { type: "boolean", default: false },
      import: { type: "boolean", default: false },
      "no-import": { type: "boolean", default: false },
      "import-only": { type: "boolean", default: false },
      "import-statements": { type: "boolean", default: false },
      "flags-only": { type: "boolean", default: false },
      "reports-only": { type: "boolean", default: false },
      "alerts-only": { type: "boolean", default: false },
      "live-only": { type: "boolean", default: false },
      "load-only": { type: "boolean", default: false },
      load: { type: "boolean", default: false },
      "soak-minutes": { type: "string", default: "0" },
      "load-rates": { type: "string" },
      "flags-statements": { type: "boolean", default: false },
      "report-iterations": { type: "string", default: "30" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const iterations = Math.max(1, Number.parseInt(values.iterations, 10) || 200);
  const warmup = Math.min(50, Math.max(5, Math.round(iterations / 4)));
  const dataDir = fileURLToPath(new URL("../.data/embedded", import.meta.url));
  const results: ApiBenchResult[] = [];
  const imports: ImportBenchResult[] = [];
  const flagResults: FlagsBenchResult[] = [];
  const reportResults: ReportsBenchResult[] = [];
  const liveResults: LiveBenchResult[] = [];
  const reportIterations = Math.max(1, Number.parseInt(values["report-iterations"], 10) || 30);
  const importOnly = values["import-only"];
  const flagsOnly = values["flags-only"];
  const reportsOnly = values["reports-only"];
  const alertsOnly = values["alerts-only"];
  const alertResults: AlertsBenchResult[] = [];
  const liveOnly = values["live-only"];
  const loadOnly = values["load-only"];
  const withLoad = loadOnly || values.load;
  const soakMinutes = Math.max(0, Number.parseFloat(values["soak-minutes"]) || 0);
  const loadRates = values["load-rates"]
    ?.split(",")
    .map((r) => Number.parseInt(r, 10))
    .filter((r) => r > 0);
  const loadResults: LoadBenchResult[] = [];
  const dashboardOnly = values["dashboard-only"];
  const onlyOne = importOnly || flagsOnly || reportsOnly || liveOnly || loadOnly || alertsOnly || dashboardOnly;
  const browserOnly = values["browser-only"] || values["lighthouse-only"];
  const dashboards = (dashboardOnly || !onlyOne) && !browserOnly;
  const everything = !onlyOne && !values.only && !browserOnly;
  // The import runs after the dashboard requests, so it never changes their figures.
  const withImport = importOnly || (!values["no-import"] && (values.import || everything));
  const withFlags = flagsOnly || everything;
  const withReports = reportsOnly || everything;
  const withLive = liveOnly || everything;
  const withAlerts = alertsOnly || everything;
  const usesBenchData = dashboards || withImport || withFlags || withReports || withLoad || withAlerts;
  // What runs on each engine: the dashboard requests, the import, the flag uploader, the reports.
  async function benchEngine(engine: BenchEngine): Promise<void> {
    if (dashboards) results.push(await runApiBench(engine.database, { iterations, warmup, log, only: values.only }));
    if (withImport) imports.push(await runImportBench(engine, { log, statements: values["import-statements"] }));
    // engine.database is read afresh at each use: on the embedded engine a bench that starts the
    // server lets go of the folder and opens it again (a new handle).
    const label = engine.database.engine;
    if (withFlags) {
      log(`flag uploader on ${label}`);
      // The students' own Benefit Assignment IDs are kept here while the run has them away.
      const backupFile = fileURLToPath(new URL(`../.data/flags-benefit-ids-${label}.json`, import.meta.url));
      mkdirSync(dirname(backupFile), { recursive: true });
      flagResults.push(await runFlagsBench(engine, { log, backupFile, statements: values["flags-statements"] }));
    }
    if (withReports) {
      log(`reports on ${label}`);
      reportResults.push(await runReportsBench(engine.database, { iterations: reportIterations, warmup: 5, log }));
    }
    if (withAlerts) {
      log(`early warning on ${label}`);
      const r = await runAlertsBench(engine.database, { iterations, log });
      alertResults.push(r);
      misses.push(...alertsMissesOf(r));
    }
    if (withLoad) {
      const instances = engine.database.engine === "postgres" ? 2 : 1;
      log(`load on ${engine.database.engine}, ${instances} instance${instances > 1 ? "s" : ""}`);
      loadResults.push(await runLoadBench(engine, { log, instances, soakMinutes, kill: instances > 1, rates: loadRates }));
    }
  }
  const misses: string[] = [];
  const idle = await idleEventLoop(5000);

  if (!values["no-embedded"] && usesBenchData) {
    const engine: BenchEngine = {
      database: await openEmbeddedBenchDatabase(dataDir, log),
      server: { dataDir },
      async released(fn) {
        await engine.database.close();
        try {
          return await fn();
        } finally {
          engine.database = await openEmbeddedBenchDatabase(dataDir, log);
        }
      },
    };
    try {
      log(`embedded database in ${dataDir}`);
      await benchEngine(engine);
    } finally {
      await engine.database.close();
    }
  }

  const url = process.env.BENCH_DATABASE_URL;
  if (!usesBenchData) {
    // Only the browser timing below.
  } else if (url) {
    const database = await openPostgresBenchDatabase(url, log);
    try {
      log(`PostgreSQL at ${new URL(url).host}${new URL(url).pathname}`);
      await benchEngine({ database, server: { databaseUrl: url }, released: (fn) => fn() });
    } finally {
      await database.close();
    }
  } else {
    log("PostgreSQL skipped: set BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/tally_bench to include it.");
  }

  // The live connection brings its own servers and databases (see notifications-bench.ts).
  if (withLive) {
    if (!values["no-embedded"]) liveResults.push(await runNotificationsBench({ instances: 1, log }));
    if (url) {
      liveResults.push(await runNotificationsBench({ databaseUrl: url, instances: 1, log }));
      liveResults.push(await runNotificationsBench({ databaseUrl: url, instances: 2, log }));
    } else if (liveOnly) {
      log("Live connection on PostgreSQL skipped: set BENCH_DATABASE_URL to include it.");
    }
  }

  log("");
  // Other work on the machine shows up as tail latency and event-loop delay: say how busy it was.
  log(`${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(1)).join(" / ")} (1 / 5 / 15 min) at the end of the run`);
  log(
    `Event loop of this process idling for 5 s before the run: blocked at most ${idle.blockedMs.toFixed(1)} ms (longest tick interval ${idle.maxMs.toFixed(1)} ms, p99 ${idle.p99Ms.toFixed(1)} ms)`,
  );
  log("(delays an idle process also sees come from the machine's other work, not from the requests)");
  log("");
  for (const r of results) {
    for (const line of formatResult(r, iterations)) log(line);
    misses.push(...missesOf(r));
    log("");
  }
  for (const r of imports) {
    for (const line of formatImportResult(r)) log(line);
    misses.push(...importMissesOf(r));
    log("");
  }
  for (const r of flagResults) {
    for (const line of formatFlagsResult(r)) log(line);
    misses.push(...flagsMissesOf(r));
    log("");
  }
  for (const r of reportResults) {
    for (const line of formatReportsResult(r)) log(line);
    misses.push(...reportsMissesOf(r));
    log("");
  }

  for (const r of loadResults) {
    for (const line of formatLoadResult(r)) log(line);
    misses.push(...loadMissesOf(r));
  }
  for (const r of liveResults) {
    for (const line of formatLiveResult(r)) log(line);
    misses.push(...liveMissesOf(r));
    log("");
  }

  if (values.browser || browserOnly) {
    if (!usesBenchData || values["no-embedded"]) {
      // The browser bench signs in as the bench admin on the embedded data: seed it if it never was.
      const database = await openEmbeddedBenchDatabase(dataDir, log);
      await database.close();
    }
    const browser = await runBrowserBench({ dataDir: join(dataDir), log, timing: !values["lighthouse-only"] });
    for (const line of browser.lines) log(line);
    misses.push(...browser.misses);
    log("");
  }

  log(misses.length === 0 ? "All targets met." : `Targets missed:\n${misses.map((m) => `  MISS ${m}`).join("\n")}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
