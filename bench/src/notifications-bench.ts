import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SignedInResponse } from "@tally/contract";
import { openDatabase } from "@tally/server/db/connection";
import { migrateToLatest } from "@tally/server/db/migrate";
import { hashPassword } from "@tally/server/lib/password-hash";
import pg from "pg";
import { freePort } from "../../tools/free-port.mjs";
import { BENCH_PASSWORD } from "./dataset.js";

// Issue 14, scale: one instance holds 2,000 open event streams; how much memory they cost the
// server, and how long a FORCE_LOGOUT takes to reach every stream of one user at that load.
// The server runs as `npm start` runs it (apps/server/dist/server.js) in child processes, so
// their memory is measured alone (/proc/<pid>/status), on a fresh database of their own: a
// temporary embedded one, or a schema of its own in BENCH_DATABASE_URL's PostgreSQL.

export const LIVE_TARGETS = { streams: 2000, memoryGrowthMb: 150, forceLogoutMs: 1000 } as const;
const USERS = 100;
const STREAMS_PER_USER = LIVE_TARGETS.streams / USERS;
const ROUNDS = 5;
const SECRET_KEY = `bench-live-${"k".repeat(40)}`;
const root = fileURLToPath(new URL("../..", import.meta.url));

export interface LiveBenchOptions {
  /** PostgreSQL connection string; absent = the embedded database. */
  databaseUrl?: string;
  /** Server processes sharing the database (2 only on PostgreSQL): the streams are spread over them. */
  instances: 1 | 2;
  log: (line: string) => void;
}

export interface LiveBenchResult {
  label: string;
  streams: number;
  /** Per instance: resident memory before the streams opened, with them open, and the peak. */
  memory: Array<{ beforeMb: number; afterMb: number; peakMb: number }>;
  openMs: number;
  /** Per round: from sending the admin's deactivation to the last of the user's streams hearing it. */
  deliveryMs: number[];
  /** Per round: the admin's request alone. */
  requestMs: number[];
  /** FORCE_LOGOUTs that reached a stream of another user (must be 0). */
  strays: number;
  /** SIGTERM to exit, with the remaining streams open (per instance). */
  shutdownMs: number[];
  exitCodes: Array<number | null>;
}

interface Server {
  child: ChildProcess;
  baseUrl: string;
  output: string;
  exited: Promise<number | null>;
}

interface LiveStream {
  userIndex: number;
  connected: Promise<void>;
  forceLogout: Promise<number>;
  sawForceLogout: boolean;
}

export async function runNotificationsBench(options: LiveBenchOptions): Promise<LiveBenchResult> {
  const { log } = options;
  const engine = options.databaseUrl ? "PostgreSQL" : "embedded";
  const label = `${engine}, ${options.instances === 2 ? "two instances" : "one instance"}`;
  log(`live connection: ${label}`);
  const dataDir = mkdtempSync(join(tmpdir(), "tally-live-bench-"));
  const schema = `bench_live_${randomBytes(4).toString("hex")}`;
  const servers: Server[] = [];
  try {
    const serverDatabaseUrl = await prepareDatabase(options.databaseUrl, dataDir, schema);
    for (let i = 0; i < options.instances; i++) servers.push(await startServer(dataDir, serverDatabaseUrl));
    const first = servers[0] as Server;

    // Every account signs in once; its streams share the token, as a browser's tabs do.
    const adminToken = await signIn(first.baseUrl, "live-admin");
    const tokens: string[] = [];
    for (let u = 0; u < USERS; u++) tokens.push(await signIn(first.baseUrl, `live-${u}`));
    const userIds = await userIdsOf(first.baseUrl, adminToken);

    await new Promise((r) => setTimeout(r, 1000));
    const before = servers.map((s) => memoryOf(s.child));
    const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
    const streams: LiveStream[] = [];
    const openStarted = performance.now();
    for (let batch = 0; batch < LIVE_TARGETS.streams; batch += 100) {
      const opened: LiveStream[] = [];
      for (let i = batch; i < batch + 100; i++) {
        const userIndex = i % USERS;
        const server = servers[i % servers.length] as Server;
        opened.push(openStream(agent, server.baseUrl, tokens[userIndex] as string, userIndex));
      }
      await Promise.all(opened.map((s) => s.connected));
      streams.push(...opened);
    }
    const openMs = performance.now() - openStarted;
    await new Promise((r) => setTimeout(r, 2000));
    const after = servers.map((s) => memoryOf(s.child));
    log(`  ${streams.length} streams open in ${(openMs / 1000).toFixed(1)} s`);

    const deliveryMs: number[] = [];
    const requestMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const target = streams.filter((s) => s.userIndex === round);
      const started = performance.now();
      const res = await fetch(`${first.baseUrl}/api/users/${userIds.get(`live-${round}`)}/deactivate`, {
        method: "POST",
        headers: { authorization: `Bearer ${adminToken}` },
      });
      requestMs.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`deactivation failed: ${res.status} ${await res.text()}`);
      const reached = await Promise.all(target.map((s) => s.forceLogout));
      deliveryMs.push(Math.max(...reached) - started);
    }
    // Let any stray delivery arrive before counting.
    await new Promise((r) => setTimeout(r, 500));
    const strays = streams.filter((s) => s.userIndex >= ROUNDS && s.sawForceLogout).length;

    // Graceful shutdown with the remaining streams open.
    const shutdownMs: number[] = [];
    const exitCodes: Array<number | null> = [];
    await Promise.all(
      servers.map(async (s) => {
        const t0 = performance.now();
        s.child.kill("SIGTERM");
        exitCodes.push(await s.exited);
        shutdownMs.push(performance.now() - t0);
      }),
    );
    agent.destroy();
    return { label, streams: streams.length, memory: servers.map((_, i) => ({ beforeMb: before[i]?.rssMb ?? 0, afterMb: after[i]?.rssMb ?? 0, peakMb: after[i]?.hwmMb ?? 0 })), openMs, deliveryMs, requestMs, strays, shutdownMs, exitCodes };
  } finally {
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGKILL");
    if (options.databaseUrl) await adminQuery(options.databaseUrl, `drop schema if exists "${schema}" cascade`).catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Migrates a fresh database and adds the accounts; returns the DATABASE_URL for the servers. */
async function prepareDatabase(databaseUrl: string | undefined, dataDir: string, schema: string): Promise<string> {
  let serverUrl = "";
  if (databaseUrl) {
    await adminQuery(databaseUrl, `create schema "${schema}"`);
    const url = new URL(databaseUrl);
    url.searchParams.set("options", `-c search_path=${schema}`);
    serverUrl = url.toString();
  }
  const database = await openDatabase(databaseUrl ? { databaseUrl, schema, poolSize: 2 } : { dataDir: join(dataDir, "pglite") });
  try {
    await migrateToLatest(database.db);
    const password_hash = await hashPassword(BENCH_PASSWORD);
    const base = { password_hash, is_active: true, email_verified: true, school_id: null };
    await database.db
      .insertInto("users")
      .values([
        { ...base, username: "live-admin", email: "live-admin@bench.tally.test", role: "super_admin" as const },
        ...Array.from({ length: USERS }, (_, u) => ({
          ...base,
          username: `live-${u}`,
          email: `live-${u}@bench.tally.test`,
          role: "admin" as const,
        })),
      ])
      .execute();
  } finally {
    await database.close();
  }
  return serverUrl;
}

async function adminQuery(databaseUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function startServer(dataDir: string, databaseUrl: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ["apps/server/dist/server.js"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SECRET_KEY,
      DEMO_SEED: "false",
      LOG_LEVEL: "warn",
      NODE_ENV: "development",
      // Every stream comes from 127.0.0.1, twenty per user: the caps are raised to what the bench holds.
      STREAMS_PER_USER: String(STREAMS_PER_USER),
      STREAMS_PER_ADDRESS: String(LIVE_TARGETS.streams),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const server: Server = {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    output: "",
    exited: new Promise((resolve) => child.once("exit", (code) => resolve(code))),
  };
  child.stdout?.on("data", (d) => {
    server.output += d;
  });
  child.stderr?.on("data", (d) => {
    server.output += d;
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${server.output}`);
    try {
      if ((await fetch(`${server.baseUrl}/api/health-check`)).ok) return server;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function signIn(baseUrl: string, username: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: username, password: BENCH_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${username} failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as SignedInResponse).token;
}

async function userIdsOf(baseUrl: string, adminToken: string): Promise<Map<string, number>> {
  const res = await fetch(`${baseUrl}/api/users`, { headers: { authorization: `Bearer ${adminToken}` } });
  const body = (await res.json()) as { data: Array<{ id: number; username: string }> };
  return new Map(body.data.map((u) => [u.username, u.id]));
}

/** A stream read just enough to see CONNECTED and FORCE_LOGOUT (the time it arrived). */
function openStream(agent: Agent, baseUrl: string, token: string, userIndex: number): LiveStream {
  let connected: (() => void) | undefined;
  let failed: ((err: Error) => void) | undefined;
  let reached: ((at: number) => void) | undefined;
  const stream: LiveStream = {
    userIndex,
    connected: new Promise<void>((resolve, reject) => {
      connected = resolve;
      failed = reject;
    }),
    forceLogout: new Promise<number>((resolve) => {
      reached = resolve;
    }),
    sawForceLogout: false,
  };
  const req = request(`${baseUrl}/api/notifications?token=${token}`, { agent }, (res) => {
    if (res.statusCode !== 200) {
      failed?.(new Error(`stream refused: ${res.statusCode}`));
      res.resume();
      return;
    }
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      if (chunk.includes('"CONNECTED"')) connected?.();
      if (chunk.includes('"FORCE_LOGOUT"')) {
        stream.sawForceLogout = true;
        reached?.(performance.now());
      }
    });
    res.on("error", () => {});
  });
  req.on("error", (err) => failed?.(err));
  req.end();
  return stream;
}

/** Resident and peak memory of a process, in MB (Linux /proc). */
function memoryOf(child: ChildProcess): { rssMb: number; hwmMb: number } {
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return { rssMb: kb("VmRSS") / 1024, hwmMb: kb("VmHWM") / 1024 };
}

const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

export function formatLiveResult(r: LiveBenchResult): string[] {
  const sorted = [...r.deliveryMs].sort((a, b) => a - b);
  const lines = [`Live connection (${r.label}): ${r.streams} open streams, ${STREAMS_PER_USER} per user`];
  r.memory.forEach((m, i) => {
    const name = r.memory.length > 1 ? `instance ${i + 1}` : "server";
    lines.push(
      `  ${name} memory: ${m.beforeMb.toFixed(0)} MB before, ${m.afterMb.toFixed(0)} MB with the streams open: +${(m.afterMb - m.beforeMb).toFixed(0)} MB (target ≤ ${LIVE_TARGETS.memoryGrowthMb}); peak ${m.peakMb.toFixed(0)} MB`,
    );
  });
  lines.push(`  opening the streams: ${(r.openMs / 1000).toFixed(1)} s`);
  lines.push(
    `  FORCE_LOGOUT to all ${STREAMS_PER_USER} streams of a user: ${sorted.map(fmt).join(", ")} over ${r.deliveryMs.length} rounds (target ≤ ${LIVE_TARGETS.forceLogoutMs} ms); the admin's request alone ${r.requestMs.map(fmt).join(", ")}`,
  );
  lines.push(`  FORCE_LOGOUTs reaching someone else's stream: ${r.strays}`);
  lines.push(`  SIGTERM with the other streams open: exit ${r.exitCodes.join(", ")} after ${r.shutdownMs.map(fmt).join(", ")}`);
  return lines;
}

export function liveMissesOf(r: LiveBenchResult): string[] {
  const misses: string[] = [];
  r.memory.forEach((m, i) => {
    const growth = m.afterMb - m.beforeMb;
    if (growth > LIVE_TARGETS.memoryGrowthMb) misses.push(`live (${r.label}) instance ${i + 1}: +${growth.toFixed(0)} MB for ${r.streams} streams > ${LIVE_TARGETS.memoryGrowthMb} MB`);
  });
  const worst = Math.max(...r.deliveryMs);
  if (worst > LIVE_TARGETS.forceLogoutMs) misses.push(`live (${r.label}): FORCE_LOGOUT took ${worst.toFixed(0)} ms > ${LIVE_TARGETS.forceLogoutMs} ms`);
  if (r.strays > 0) misses.push(`live (${r.label}): ${r.strays} FORCE_LOGOUTs reached other users' streams`);
  if (r.exitCodes.some((c) => c !== 0)) misses.push(`live (${r.label}): shutdown exit codes ${r.exitCodes.join(", ")}`);
  return misses;
}
