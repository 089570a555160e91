import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import type { SignedInResponse } from "@tally/contract";
import lighthouse from "lighthouse";
import puppeteer, { type Browser } from "puppeteer-core";
import { BENCH_PASSWORD, BENCH_USERS } from "./dataset.js";

/** Issue 29's targets, Lighthouse 12's mobile preset (simulated slow 4G, 4× CPU slowdown). */
export const LIGHTHOUSE_TARGETS = { loginScore: 90, loginTransferKb: 350, dashboardTbtMs: 300 } as const;

/** The same Debian Chromium and flags as tools/chromium.mjs, driven through puppeteer for Lighthouse. */
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface PageAudit {
  page: string;
  /** Performance category, 0–100. */
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  /** Bytes over the network, compressed as sent. */
  transferBytes: number;
  /** Script files fetched, by name (to see that no dashboard or chart code reached /login). */
  scripts: string[];
}

export interface LighthouseResult {
  audits: PageAudit[];
  /** How busy the machine was: Lighthouse's simulation scales the CPU time it observed, so other work inflates TBT and LCP. */
  load: string;
  lines: string[];
  misses: string[];
}

interface NetworkRequestItem {
  url: string;
  resourceType?: string;
}

async function audit(browser: Browser, url: string, page: string, opts: { keepStorage: boolean }): Promise<PageAudit> {
  const tab = await browser.newPage();
  try {
    // Storage kept (the session) but not the cache: both pages are measured as a first visit.
    if (opts.keepStorage) await (await tab.createCDPSession()).send("Network.clearBrowserCache");
    // Mobile preset: Lighthouse's defaults (formFactor mobile, simulated throttling).
    const result = await lighthouse(url, { onlyCategories: ["performance"], logLevel: "error", disableStorageReset: opts.keepStorage }, undefined, tab);
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    // For tuning: the whole report (long tasks, script boot-up, the main thread's work) per page.
    const keep = process.env.BENCH_LIGHTHOUSE_JSON;
    if (keep) writeFileSync(`${keep}-${page.split(" ")[0]?.replaceAll("/", "") || "page"}.json`, JSON.stringify(lhr));
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
    const number = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const requests = ((lhr.audits["network-requests"]?.details as { items?: NetworkRequestItem[] } | undefined)?.items ?? []);
    return {
      page,
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      fcpMs: number("first-contentful-paint"),
      lcpMs: number("largest-contentful-paint"),
      tbtMs: number("total-blocking-time"),
      transferBytes: number("total-byte-weight"),
      scripts: requests.filter((r) => r.resourceType === "Script").map((r) => new URL(r.url).pathname.split("/").pop() ?? r.url),
    };
  } finally {
    await tab.close();
  }
}

/**
 * Lighthouse 12 (mobile preset) on the built server at baseUrl: /login cold (storage reset, no
 * cache), then the signed-in admin dashboard (the session put in localStorage as the web app
 * keeps it, the cache emptied as for a first visit).
 */
export async function runLighthouse(opts: { baseUrl: string; log: (line: string) => void }): Promise<LighthouseResult> {
  const browser = await puppeteer.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS });
  try {
    opts.log("Lighthouse: /login");
    const login = await audit(browser, `${opts.baseUrl}/login`, "/login", { keepStorage: false });

    const res = await fetch(`${opts.baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login: BENCH_USERS.admin, password: BENCH_PASSWORD }),
    });
    if (!res.ok) throw new Error(`signing in the bench admin: ${res.status} ${await res.text()}`);
    const session = (await res.json()) as SignedInResponse;
    const tab = await browser.newPage();
    await tab.goto(`${opts.baseUrl}/login`);
    await tab.evaluate((s: SignedInResponse) => {
      localStorage.setItem("tally.token", s.token);
      localStorage.setItem("tally.refreshToken", s.refreshToken);
      localStorage.setItem("tally.user", JSON.stringify(s.user));
    }, session);
    await tab.close();
    opts.log("Lighthouse: /dashboard, signed in as the bench admin");
    const dashboard = await audit(browser, `${opts.baseUrl}/dashboard`, "/dashboard (admin, 50,000 students)", { keepStorage: true });

    const load = `load ${loadavg()[0]?.toFixed(1)} on ${cpus().length} CPUs`;
    const judged = judge(login, dashboard);
    return { audits: [login, dashboard], load, lines: [...judged.lines, `  (machine: ${load}, 1-minute average)`], misses: judged.misses };
  } finally {
    await browser.close();
  }
}

const kb = (bytes: number) => bytes / 1024;

function judge(login: PageAudit, dashboard: PageAudit): { lines: string[]; misses: string[] } {
  const t = LIGHTHOUSE_TARGETS;
  const misses: string[] = [];
  if (login.score < t.loginScore) misses.push(`lighthouse: /login Performance ${login.score} < ${t.loginScore}`);
  if (kb(login.transferBytes) > t.loginTransferKb) misses.push(`lighthouse: /login transfer ${kb(login.transferBytes).toFixed(0)} KB > ${t.loginTransferKb} KB`);
  if (dashboard.tbtMs > t.dashboardTbtMs) misses.push(`lighthouse: dashboard total blocking time ${dashboard.tbtMs.toFixed(0)} ms > ${t.dashboardTbtMs} ms`);
  const lines = ["Lighthouse 12, mobile preset (simulated slow 4G, 4× CPU slowdown), Debian Chromium:"];
  for (const a of [login, dashboard]) {
    lines.push(
      `  ${a.page}: Performance ${a.score}, FCP ${a.fcpMs.toFixed(0)} ms, LCP ${a.lcpMs.toFixed(0)} ms, TBT ${a.tbtMs.toFixed(0)} ms, transfer ${kb(a.transferBytes).toFixed(0)} KB, ${a.scripts.length} scripts`,
    );
  }
  lines.push(`  /login scripts: ${login.scripts.join(", ")}`);
  lines.push(
    `  targets: /login Performance ≥ ${t.loginScore} and transfer ≤ ${t.loginTransferKb} KB, dashboard TBT ≤ ${t.dashboardTbtMs} ms  ${misses.length === 0 ? "ok" : "MISS"}`,
  );
  return { lines, misses };
}

const TABLE_START = "<!-- lighthouse-table:start -->";
const TABLE_END = "<!-- lighthouse-table:end -->";

/** The figures as the Markdown table between the markers in docs/performance.md. */
export function lighthouseTable(result: LighthouseResult, date: string): string {
  const t = LIGHTHOUSE_TARGETS;
  const target = (a: PageAudit) =>
    a.page === "/login" ? `Performance ≥ ${t.loginScore}, transfer ≤ ${t.loginTransferKb} KB` : `TBT ≤ ${t.dashboardTbtMs} ms`;
  return [
    TABLE_START,
    `| page (${date}, ${result.load}) | Performance | FCP | LCP | TBT | transfer | target |`,
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...result.audits.map(
      (a) =>
        `| ${a.page} | ${a.score} | ${(a.fcpMs / 1000).toFixed(1)} s | ${(a.lcpMs / 1000).toFixed(1)} s | ${a.tbtMs.toFixed(0)} ms | ${kb(a.transferBytes).toFixed(0)} KB | ${target(a)} |`,
    ),
    TABLE_END,
  ].join("\n");
}

/** Writes the table into the document between its markers; false when the markers are missing. */
export function writeLighthouseTable(docPath: string, result: LighthouseResult, date: string): boolean {
  const doc = readFileSync(docPath, "utf8");
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) return false;
  writeFileSync(docPath, doc.slice(0, start) + lighthouseTable(result, date) + doc.slice(end + TABLE_END.length));
  return true;
}
