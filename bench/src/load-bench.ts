import autocannon from "autocannon";
import type { LoginResponse } from "@tally/contract";
import type { BenchEngine } from "./bench-app.js";
import { BENCH_PASSWORD, BENCH_USERS } from "./dataset.js";
import { startBalancer } from "./load-balancer.js";
import { residentMb } from "./probe.js";
import { type ServerProcess, startServerProcess } from "./server-process.js";

/** Issue 15's load target: p99 at most this, with no error. */
export const LOAD_P99_MS = 50;
const USERS = 200;
const STEP_SECONDS = 10;
const RATES = [25, 50, 100, 200, 300, 400, 500, 600, 700, 800, 1000];
/** Every role: the demo accounts and the bench's own (one password for all, see dataset.ts). */
const ACCOUNTS = ["superadmin", "admin", "admin2", "district", "school", "school2", BENCH_USERS.admin, BENCH_USERS.district, BENCH_USERS.school];
/** The dashboard's requests; each session keeps those its role is allowed (checked first). */
const DASHBOARD = [
  "/api/auth/profile",
  "/api/attendance/cohort-trends",
  "/api/students?page=1&limit=48",
  "/api/students/summary",
  "/api/schools",
  "/api/cohorts",
  "/api/teams",
];

export interface LoadStep {
  rate: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
}

export interface LoadBenchResult {
  engine: string;
  instances: number;
  users: number;
  steps: LoadStep[];
  /** The highest step with p99 ≤ 50 ms and no error. */
  best: LoadStep | null;
  memoryMb: { before: number[]; after: number[] };
  soak: { minutes: number; rate: number; rps: number; p99: number; errors: number; warmMb: number; endMb: number; samplesMb: number[] } | null;
  kill: { rate: number; rps: number; p99: number; errors: number; non2xx: number; retried: number; failedAtBalancer: number; survivorAnswered: number; writes: number; writesAcknowledged: number; writesLost: number } | null;
}

interface Session {
  authorization: string;
  refreshToken: string;
  urls: string[];
}

async function signIn(url: string, login: string): Promise<LoginResponse> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login, password: BENCH_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${login}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  return (await res.json()) as LoginResponse;
}

/** 200 signed-in users over every role, each with the dashboard requests its role may make. */
async function signInUsers(url: string, log: (line: string) => void): Promise<Session[]> {
  const allowed = new Map<string, string[]>();
  const sessions: Session[] = [];
  for (let i = 0; i < USERS; i++) {
    const login = ACCOUNTS[i % ACCOUNTS.length] as string;
    const reply = await signIn(url, login);
    const authorization = `Bearer ${reply.token}`;
    if (!allowed.has(login)) {
      const ok: string[] = [];
      for (const path of DASHBOARD) if ((await fetch(`${url}${path}`, { headers: { authorization } })).status === 200) ok.push(path);
      allowed.set(login, ok);
    }
    sessions.push({ authorization, refreshToken: reply.refreshToken, urls: allowed.get(login) ?? [] });
  }
  log(`  ${sessions.length} users signed in (${ACCOUNTS.length} accounts of every role), ${sessions.reduce((n, s) => n + s.urls.length, 0)} request kinds in the mix`);
  return sessions;
}

/** Traffic at a fixed rate: each request a random user's random dashboard request. */
async function traffic(url: string, sessions: Session[], rate: number, seconds: number) {
  const result = await autocannon({
    url,
    connections: Math.min(100, Math.max(10, Math.round(rate / 10))),
    overallRate: rate,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        setupRequest(req) {
          const s = sessions[Math.floor(Math.random() * sessions.length)] as Session;
          const path = s.urls[Math.floor(Math.random() * s.urls.length)] ?? "/api/auth/profile";
          return { ...req, method: "GET", path, headers: { ...req.headers, authorization: s.authorization } };
        },
      },
    ],
  });
  const step: LoadStep = {
    rate,
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
  return step;
}

const passes = (s: LoadStep) => s.p99 <= LOAD_P99_MS && s.errors === 0 && s.non2xx === 0;

/**
 * Issue 15's load figures: dashboard traffic of 200 signed-in users at rising rates against the
 * built server (two instances on one PostgreSQL behind a round-robin balancer, or one on the
 * embedded engine); optionally a soak at 60 % of the best rate, and, with two instances, one
 * killed mid-run while sign-ins (writes) go on.
 */
export async function runLoadBench(
  engine: BenchEngine,
  opts: { log: (line: string) => void; instances: 1 | 2; soakMinutes: number; kill: boolean },
): Promise<LoadBenchResult> {
  const { log } = opts;
  return await engine.released(async () => {
    const servers: ServerProcess[] = [];
    try {
      for (let i = 0; i < opts.instances; i++) servers.push(await startServerProcess({ ...engine.server, log }));
      const balancer = opts.instances > 1 ? await startBalancer(servers.map((s) => s.port)) : null;
      const url = balancer?.url ?? (servers[0] as ServerProcess).url;
      try {
        const sessions = await signInUsers(url, log);
        await traffic(url, sessions, 100, 5); // warm-up: JIT, caches, pools
        const before = servers.map((s) => residentMb(s.pid));
        const steps: LoadStep[] = [];
        for (const rate of RATES) {
          const step = await traffic(url, sessions, rate, STEP_SECONDS);
          steps.push(step);
          log(`  ${rate}/s asked: ${step.rps.toFixed(0)}/s done, p50 ${step.p50} ms, p99 ${step.p99} ms, max ${step.max} ms, ${step.errors} errors, ${step.non2xx} non-2xx`);
          if (!passes(step) || step.rps < rate * 0.9) break;
        }
        const after = servers.map((s) => residentMb(s.pid));
        const best = steps.findLast(passes) ?? null;
        const sixty = Math.max(50, Math.round(((best?.rps ?? 100) * 0.6) / 10) * 10);

        let soak: LoadBenchResult["soak"] = null;
        if (opts.soakMinutes > 0) soak = await soakRun(url, sessions, servers, sixty, opts.soakMinutes, log);

        let kill: LoadBenchResult["kill"] = null;
        if (opts.kill && balancer && servers.length > 1) {
          kill = await killRun(url, sessions, servers, balancer.counts, sixty, log);
        }
        return { engine: engine.database.engine, instances: opts.instances, users: sessions.length, steps, best, memoryMb: { before, after }, soak, kill };
      } finally {
        await balancer?.close();
      }
    } finally {
      for (const s of servers) await s.stop();
    }
  });
}

async function soakRun(url: string, sessions: Session[], servers: ServerProcess[], rate: number, minutes: number, log: (line: string) => void) {
  log(`  soak: ${minutes} min at ${rate}/s`);
  const samplesMb: number[] = [];
  const sample = () => samplesMb.push(servers.reduce((n, s) => n + residentMb(s.pid), 0));
  const timer = setInterval(sample, 10_000);
  try {
    const step = await traffic(url, sessions, rate, minutes * 60);
    sample();
    // Warm-up: the first minute (JIT, caches and pools fill).
    const warmMb = samplesMb[Math.min(5, samplesMb.length - 1)] ?? 0;
    const endMb = samplesMb[samplesMb.length - 1] ?? 0;
    log(`  soak: ${step.rps.toFixed(0)}/s, p99 ${step.p99} ms, ${step.errors + step.non2xx} errors; memory ${warmMb.toFixed(0)} MB after warm-up, ${endMb.toFixed(0)} MB at the end`);
    return { minutes, rate, rps: step.rps, p99: step.p99, errors: step.errors + step.non2xx, warmMb, endMb, samplesMb };
  } finally {
    clearInterval(timer);
  }
}

/**
 * One instance is killed (SIGKILL) mid-run: the balancer sends the reads it had on to the other
 * one; sign-ins keep being written, and every one acknowledged must be usable afterwards.
 */
async function killRun(
  url: string,
  sessions: Session[],
  servers: ServerProcess[],
  counts: { answered: number[]; retried: number; failed: number },
  rate: number,
  log: (line: string) => void,
) {
  const seconds = 20;
  const answeredBefore = counts.answered[0] ?? 0;
  const retriedBefore = counts.retried;
  const failedBefore = counts.failed;
  const acknowledged: string[] = [];
  let writes = 0;
  const writing = { on: true };
  const writer = (async () => {
    for (let i = 0; writing.on; i++) {
      writes++;
      try {
        acknowledged.push((await signIn(url, ACCOUNTS[i % ACCOUNTS.length] as string)).refreshToken);
      } catch {
        // Not acknowledged: the client would try again; only acknowledged writes must last.
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  const killer = setTimeout(() => void servers[1]?.kill(), (seconds / 2) * 1000);
  const step = await traffic(url, sessions, rate, seconds);
  clearTimeout(killer);
  writing.on = false;
  await writer;
  // Every acknowledged sign-in's refresh token is in the database: the survivor renews it.
  let lost = 0;
  for (const refreshToken of acknowledged) {
    const res = await fetch(`${servers[0]?.url}/api/auth/refresh`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ refreshToken }),
    });
    if (res.status !== 200) lost++;
  }
  const result = {
    rate,
    rps: step.rps,
    p99: step.p99,
    errors: step.errors,
    non2xx: step.non2xx,
    retried: counts.retried - retriedBefore,
    failedAtBalancer: counts.failed - failedBefore,
    survivorAnswered: (counts.answered[0] ?? 0) - answeredBefore,
    writes,
    writesAcknowledged: acknowledged.length,
    writesLost: lost,
  };
  log(
    `  one of two instances killed after ${seconds / 2} s at ${rate}/s: ${result.errors + result.non2xx} failed requests, ${result.retried} reads sent on to the survivor, ` +
      `${result.failedAtBalancer} refused by the balancer; ${result.writesAcknowledged} of ${writes} sign-ins acknowledged, ${lost} of them lost`,
  );
  return result;
}
