import type { AlertList, SignedInResponse } from "@tally/contract";
import type { DatabaseHandle } from "@tally/server/db/connection";
import { evaluateAlerts } from "@tally/server/modules/alerts/alert-evaluation.service";
import type { FastifyInstance } from "fastify";
import { startApp } from "./bench-app.js";
import { BENCH_PASSWORD, BENCH_USERS, pickWorld } from "./dataset.js";
import { summarize, type Timing, watchEventLoop } from "./stats.js";

/** Issue 30's targets ("Performance (bench)"). */
export const ALERT_TARGETS = { evaluateMs: 3000, eventLoopMs: 50, listAdminP95Ms: 20, listSchoolP95Ms: 10 } as const;

export interface AlertsBenchResult {
  engine: string;
  /** Evaluating the week's cohort after an import (the bench's cohort), first and again with nothing changed. */
  evaluate: Array<{ name: string; ms: number; loopBlockedMs: number; opened: number; ended: number }>;
  /** Every cohort of the programme year at once (a rule change). */
  evaluateAll: { ms: number; loopBlockedMs: number; cohorts: number };
  openAlerts: number;
  list: Array<{ name: string; target: number } & Timing>;
}

async function signIn(app: FastifyInstance, username: string): Promise<{ authorization: string }> {
  const res = await app.inject({ method: "POST", url: "/api/auth/login", payload: { login: username, password: BENCH_PASSWORD } });
  if (res.statusCode !== 200) throw new Error(`sign-in as ${username} failed: ${res.statusCode}`);
  return { authorization: `Bearer ${res.json<SignedInResponse>().token}` };
}

/**
 * The early warning on the bench set: rules evaluated for the bench's cohort as after a week's
 * import (timed, with the event loop watched), then every cohort; then the call list's first
 * page for the admin and the school user through the real app.
 */
export async function runAlertsBench(database: DatabaseHandle, opts: { iterations: number; log: (line: string) => void }): Promise<AlertsBenchResult> {
  const world = await pickWorld(database);
  const now = new Date();
  const evaluate: AlertsBenchResult["evaluate"] = [];
  for (const name of ["after a week's import", "again, nothing changed"]) {
    const loop = watchEventLoop();
    const t0 = performance.now();
    const r = await evaluateAlerts(database.db, { cohortIds: [world.cohortId], now });
    const ms = performance.now() - t0;
    evaluate.push({ name, ms, loopBlockedMs: loop.stop().blockedMs, opened: r.opened, ended: r.ended });
    opts.log(`  evaluate one cohort, ${name}: ${(ms / 1000).toFixed(2)} s, event loop held ${evaluate.at(-1)?.loopBlockedMs.toFixed(0)} ms, ${r.opened} opened`);
  }
  const loop = watchEventLoop();
  const t0 = performance.now();
  const all = await evaluateAlerts(database.db, { now });
  const evaluateAll = { ms: performance.now() - t0, loopBlockedMs: loop.stop().blockedMs, cohorts: all.cohorts };
  opts.log(`  evaluate every cohort (${all.cohorts}): ${(evaluateAll.ms / 1000).toFixed(2)} s, event loop held ${evaluateAll.loopBlockedMs.toFixed(0)} ms`);

  const app = await startApp(database);
  try {
    const users = { admin: await signIn(app, BENCH_USERS.admin), school: await signIn(app, BENCH_USERS.school) };
    const first = await app.inject({ method: "GET", url: "/api/alerts?pageSize=50", headers: users.admin });
    const openAlerts = first.json<AlertList>().total;
    const list: AlertsBenchResult["list"] = [];
    for (const [name, headers, target] of [
      ["GET /api/alerts page 1 (admin)", users.admin, ALERT_TARGETS.listAdminP95Ms],
      ["GET /api/alerts page 1 (school user)", users.school, ALERT_TARGETS.listSchoolP95Ms],
    ] as const) {
      const samples: number[] = [];
      for (let i = 0; i < opts.iterations + 20; i++) {
        const s = performance.now();
        const res = await app.inject({ method: "GET", url: "/api/alerts?pageSize=50", headers });
        if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode}`);
        if (i >= 20) samples.push(performance.now() - s);
      }
      const timing = summarize(samples);
      list.push({ name, target, ...timing });
      opts.log(`  ${name}: p50 ${timing.p50.toFixed(1)} ms, p95 ${timing.p95.toFixed(1)} ms (target ${target} ms)`);
    }
    opts.log(`  open and acknowledged alerts in the admin's list: ${openAlerts}`);
    return { engine: database.engine, evaluate, evaluateAll, openAlerts, list };
  } finally {
    await app.close();
  }
}

export function alertsMissesOf(r: AlertsBenchResult): string[] {
  const misses: string[] = [];
  const week = r.evaluate[0];
  if (week && week.ms > ALERT_TARGETS.evaluateMs) misses.push(`${r.engine}: evaluating a week's cohort took ${(week.ms / 1000).toFixed(1)} s > 3 s`);
  for (const e of r.evaluate) if (e.loopBlockedMs > ALERT_TARGETS.eventLoopMs) misses.push(`${r.engine}: evaluation held the event loop ${e.loopBlockedMs.toFixed(0)} ms > 50 ms`);
  for (const l of r.list) if (l.p95 > l.target) misses.push(`${r.engine}: ${l.name} p95 ${l.p95.toFixed(1)} ms > ${l.target} ms`);
  return misses;
}
