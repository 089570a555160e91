import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import type { SignedInResponse, RefreshResponse } from "@tally/contract";
import type { BenchEngine } from "./bench-app.js";
import { BENCH_PASSWORD, BENCH_USERS } from "./dataset.js";
import { type Balancer, type BalancerCounts, startBalancer } from "./load-balancer.js";
import { nginxPath, startNginxBalancer } from "./nginx-balancer.js";
import { cpuSeconds, cpuSecondsOfCommand, residentMb } from "./probe.js";
import { watchEventLoop } from "./stats.js";
import { type ServerProcess, startServerProcess } from "./server-process.js";

/** Issue 15's load target: p99 at most this, with no error. */
export const LOAD_P99_MS = 50;
const USERS = 200;
const STEP_SECONDS = 15;
const RATES = [50, 100, 200, 300, 400, 450, 500, 550, 600, 700, 800, 1000];
/** Every role: the demo accounts and the bench's own (one password for all, see dataset.ts). */
const ACCOUNTS = ["superadmin", "admin", "admin2", "district", "school", "school2", BENCH_USERS.admin, BENCH_USERS.district, BENCH_USERS.school];
/** The dashboard's first screen, for one filter ("" = none). */
const firstScreen = (filter: string) => [
  `/api/students/summary${filter ? `?${filter}` : ""}`,
  `/api/attendance/cohort-trends?${filter ? `${filter}&` : ""}meetingType=both`,
  `/api/attendance/cohort-trends?${filter ? `${filter}&` : ""}meetingType=advisor`,
  `/api/students?${filter ? `${filter}&` : ""}page=1&limit=48`,
  `/api/cohorts${filter ? `?${filter}` : ""}`,
];

/** Up to n items from across the list (schools of every size, not only the first ones). */
const spread = <T>(items: T[], n: number): T[] =>
  [...new Set(Array.from({ length: Math.min(n, items.length) }, (_, i) => items[Math.floor((i * items.length) / n)] as T))];

/**
 * What the dashboard asks for, as the web app asks it (`features/dashboard/api`): the first
 * screen (profile, lists, summary, the trend for "both" and for one meeting type, the first
 * page of students), the same narrowed to a school, and a student card opened (detail,
 * attendance, weekly data). Teams are asked for only with a school chosen, as the dashboard
 * does: across all schools they run to thousands and it never lists them.
 */
function dashboardPaths(schoolIds: number[], studentIds: number[], hasSchoolFilter: boolean): string[] {
  const paths = ["/api/auth/profile", "/api/schools", ...firstScreen("")];
  if (!hasSchoolFilter) paths.push("/api/teams");
  else for (const id of spread(schoolIds, 3)) paths.push(...firstScreen(`schoolIds=${id}`), `/api/teams?schoolIds=${id}`);
  for (const id of studentIds.slice(0, 3)) paths.push(`/api/students/${id}`, `/api/attendance/student/${id}`, `/api/weekly-data/${id}`);
  return paths;
}

export interface LoadStep {
  rate: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
  /** Cores busy on average during the step: each server, this bench (load + balancer), PostgreSQL. */
  cores?: { servers: number[]; bench: number; postgres: number };
  /** Longest event-loop hold and garbage collection of each server, and the bench's own hold (ms). */
  stalls?: { serverLoop: number[]; serverGc: number[]; benchLoop: number };
}

/** Runs a step and notes how busy each process was meanwhile (two cores are all there is). */
async function measured(servers: ServerProcess[], run: () => Promise<LoadStep>): Promise<LoadStep> {
  const read = () => ({ servers: servers.map((s) => cpuSeconds(s.pid)), bench: cpuSeconds("self"), postgres: cpuSecondsOfCommand("postgres") });
  const probes = await Promise.all(servers.map((s) => s.probe()));
  const benchLoop = watchEventLoop();
  const before = read();
  const started = performance.now();
  const step = await run();
  const after = read();
  const readings = await Promise.all(probes.map((stop) => stop()));
  step.stalls = {
    serverLoop: readings.map((r) => Math.round(r.loop.blockedMs)),
    serverGc: readings.map((r) => Math.round(r.gc.longestMs)),
    benchLoop: Math.round(benchLoop.stop().blockedMs),
  };
  const seconds = (performance.now() - started) / 1000;
  const per = (a: number, b: number) => Math.round(((a - b) / seconds) * 100) / 100;
  step.cores = {
    servers: after.servers.map((a, i) => per(a, before.servers[i] ?? 0)),
    bench: per(after.bench, before.bench),
    postgres: per(after.postgres, before.postgres),
  };
  return step;
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

async function signIn(url: string, login: string): Promise<SignedInResponse> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login, password: BENCH_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${login}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  return (await res.json()) as SignedInResponse;
}

/** The dashboard requests this account may make (each is tried once; refused ones are left out). */
async function pathsFor(url: string, authorization: string, role: string): Promise<string[]> {
  const get = async <T>(path: string) => {
    const res = await fetch(`${url}${path}`, { headers: { authorization } });
    return res.status === 200 ? ((await res.json()) as { data: T }).data : null;
  };
  const schools = (await get<Array<{ id: number }>>("/api/schools")) ?? [];
  const students = (await get<Array<{ id: number }>>("/api/students?page=1&limit=48")) ?? [];
  const hasSchoolFilter = role !== "school_user";
  const ok: string[] = [];
  for (const path of dashboardPaths(schools.map((s) => s.id), students.map((s) => s.id), hasSchoolFilter)) {
    if ((await fetch(`${url}${path}`, { headers: { authorization } })).status === 200) ok.push(path);
  }
  return ok;
}

/** 200 signed-in users over every role, each with the dashboard requests its role may make. */
async function signInUsers(url: string, log: (line: string) => void): Promise<Session[]> {
  const allowed = new Map<string, string[]>();
  const sessions: Session[] = [];
  for (let i = 0; i < USERS; i++) {
    const login = ACCOUNTS[i % ACCOUNTS.length] as string;
    const reply = await signIn(url, login);
    const authorization = `Bearer ${reply.token}`;
    if (!allowed.has(login)) allowed.set(login, await pathsFor(url, authorization, reply.user.role));
    sessions.push({ authorization, refreshToken: reply.refreshToken, urls: allowed.get(login) ?? [] });
  }
  const kinds = [...allowed.values()].reduce((n, paths) => n + paths.length, 0);
  log(`  ${sessions.length} users signed in (${ACCOUNTS.length} accounts of every role), ${kinds} distinct dashboard requests in the mix`);
  return sessions;
}

/**
 * Access tokens live 15 minutes, and the steps, the soak and the kill run together take
 * longer: before each long run every user renews its pair, as the web app does.
 */
async function renewSessions(url: string, sessions: Session[]): Promise<void> {
  for (const s of sessions) {
    const res = await fetch(`${url}/api/auth/refresh`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ refreshToken: s.refreshToken }),
    });
    if (res.status !== 200) throw new Error(`refresh: ${res.status} ${(await res.text()).slice(0, 200)}`);
    const pair = (await res.json()) as RefreshResponse;
    s.authorization = `Bearer ${pair.token}`;
    s.refreshToken = pair.refreshToken;
  }
}

/** A second is cut into this many slots at most, so the rate's requests are spread over it. */
const MAX_SLOTS = 50;

const tenths = (ms: number) => Math.round(ms * 10) / 10;

function share(total: number, parts: number, i: number): number {
  return Math.floor(total / parts) + (i < total % parts ? 1 : 0);
}

/**
 * Traffic at a fixed rate: each request a random user's random dashboard request.
 *
 * autocannon paces a rate per connection by letting each connection send its quota for the
 * second as soon as the second starts, and every connection's second starts together: asked
 * for 500/s, it sends all 500 in one burst and then idles. People's requests do not arrive
 * like that. So the second is cut into up to 50 slots, 20 ms apart, each one autocannon run
 * started at its slot's offset whose connections send one request a second each: at 500/s,
 * ten requests leave together every 20 ms (still burstier than 200 independent people).
 * Latencies are taken from every response here, in full: autocannon's own "coordinated
 * omission" correction assumes an expected interval of `ceil(1 / rate)` = 1 ms (a second
 * taken as a millisecond) and so adds a made-up sample for every millisecond of each response.
 */
async function traffic(url: string, sessions: Session[], rate: number, seconds: number) {
  const slots = Math.min(MAX_SLOTS, rate);
  const latencies: number[] = [];
  let non2xx = 0;
  const runs = Array.from({ length: slots }, async (_, i) => {
    const slotRate = share(rate, slots, i);
    await new Promise((resolve) => setTimeout(resolve, (i * 1000) / slots));
    const run = autocannon({
      url,
      connections: slotRate,
      overallRate: slotRate,
      duration: seconds,
      timeout: 10,
      ignoreCoordinatedOmission: true,
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
    run.on("response", (_client: unknown, statusCode: number, _bytes: number, ms: number) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(ms);
      else non2xx++;
    });
    return await run;
  });
  const results = await Promise.all(runs);
  // Each slot's run lasts the step's seconds from its own start (autocannon's duration).
  const elapsed = results.reduce((n, r) => n + r.duration, 0) / results.length;
  const sorted = latencies.sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
  const step: LoadStep = {
    rate,
    rps: (latencies.length + non2xx) / Math.max(elapsed, seconds),
    p50: tenths(rank(50)),
    p99: tenths(rank(99)),
    max: tenths(sorted[sorted.length - 1] ?? 0),
    errors: results.reduce((n, r) => n + r.errors + r.timeouts, 0),
    non2xx,
  };
  return step;
}

const database = (engine: BenchEngine) => engine.database.engine;

const passes = (s: LoadStep) => s.p99 <= LOAD_P99_MS && s.errors === 0 && s.non2xx === 0;

/**
 * Issue 15's load figures: dashboard traffic of 200 signed-in users at rising rates against the
 * built server (two instances on one PostgreSQL behind a round-robin balancer, or one on the
 * embedded engine); optionally a soak at 60 % of the best rate, and, with two instances, one
 * killed mid-run while sign-ins (writes) go on.
 */
export async function runLoadBench(
  engine: BenchEngine,
  opts: { log: (line: string) => void; instances: 1 | 2; soakMinutes: number; kill: boolean; rates?: number[] | undefined },
): Promise<LoadBenchResult> {
  const { log } = opts;
  return await engine.released(async () => {
    const servers: ServerProcess[] = [];
    try {
      for (let i = 0; i < opts.instances; i++) servers.push(await startServerProcess({ ...engine.server, log, logLevel: "info", logFile: join(tmpdir(), `tally-load-server-${i}.log`) }));
      const balancer = opts.instances > 1 ? await balancerFor(servers.map((s) => s.port), log) : null;
      const url = balancer?.url ?? (servers[0] as ServerProcess).url;
      try {
        const sessions = await signInUsers(url, log);
        await traffic(url, sessions, 100, 5); // warm-up: JIT, caches, pools
        const before = servers.map((s) => residentMb(s.pid));
        const steps: LoadStep[] = [];
        for (const rate of opts.rates?.length ? opts.rates : RATES) {
          const step = await measured(servers, () => traffic(url, sessions, rate, STEP_SECONDS));
          steps.push(step);
          const cores = step.cores;
          log(
            `  ${rate}/s asked: ${step.rps.toFixed(0)}/s done, p50 ${step.p50} ms, p99 ${step.p99} ms, max ${step.max} ms, ${step.errors} errors, ${step.non2xx} non-2xx; ` +
              `cores busy: server ${cores?.servers.join(" + ")}, bench ${cores?.bench}${database(engine) === "postgres" ? `, PostgreSQL ${cores?.postgres}` : ""}; ` +
              `longest stall (ms): server loop ${step.stalls?.serverLoop.join(" + ")}, server GC ${step.stalls?.serverGc.join(" + ")}, bench loop ${step.stalls?.benchLoop}`,
          );
          if (!passes(step) || step.rps < rate * 0.9) break;
        }
        const after = servers.map((s) => residentMb(s.pid));
        const best = steps.findLast(passes) ?? null;
        const sixty = Math.max(50, Math.round(((best?.rps ?? 100) * 0.6) / 10) * 10);

        let soak: LoadBenchResult["soak"] = null;
        if (opts.soakMinutes > 0) await renewSessions(url, sessions);
        if (opts.soakMinutes > 0) soak = await soakRun(url, sessions, servers, sixty, opts.soakMinutes, log);

        let kill: LoadBenchResult["kill"] = null;
        if (opts.kill && balancer && servers.length > 1) {
          await renewSessions(url, sessions);
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
 * nginx in front of the instances where it is installed, as the README's deployment has it;
 * otherwise (or with BENCH_BALANCER=node) the small Node balancer, which costs more CPU of the
 * two cores and runs in this process, beside the load it measures.
 */
async function balancerFor(ports: number[], log: (line: string) => void): Promise<Balancer> {
  const nginx = process.env.BENCH_BALANCER === "node" ? null : nginxPath();
  const balancer = nginx ? await startNginxBalancer(nginx, ports) : await startBalancer(ports);
  log(`  balancer: ${balancer.kind === "nginx" ? `nginx (${nginx})` : "the bench's Node balancer (install nginx-light to use nginx)"} at ${balancer.url}`);
  return balancer;
}

/**
 * One instance is killed (SIGKILL) mid-run: the balancer sends the reads it had on to the other
 * one; sign-ins keep being written, and every one acknowledged must be usable afterwards.
 */
async function killRun(
  url: string,
  sessions: Session[],
  servers: ServerProcess[],
  balancerCounts: () => BalancerCounts,
  rate: number,
  log: (line: string) => void,
) {
  const seconds = 20;
  const before = balancerCounts();
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
  const counts = balancerCounts();
  const result = {
    rate,
    rps: step.rps,
    p99: step.p99,
    errors: step.errors,
    non2xx: step.non2xx,
    retried: counts.retried - before.retried,
    failedAtBalancer: counts.failed - before.failed,
    survivorAnswered: (counts.answered[0] ?? 0) - (before.answered[0] ?? 0),
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
