import { appendFileSync } from "node:fs";
import type { SignedInResponse } from "@tally/contract";
import type { FastifyInstance } from "fastify";
import { type BenchEngine, type Headers, startApp, type Step, type statementTimer } from "./bench-app.js";
import { BENCH_PASSWORD } from "./dataset.js";
import { type MemoryReading, type ProbeReading, startProbe, watchProcessMemory } from "./probe.js";
import { type ServerProcess, startServerProcess } from "./server-process.js";

/**
 * Where a bench sends its requests: the built server in a process of its own (the figures: its
 * memory, event loop and CPU time alone), or, when statements are timed, the app in this
 * process, since the statement timer has to sit in the app.
 */
export interface BenchTarget {
  request: ServerProcess["request"];
  probe: ServerProcess["probe"];
  watchMemory(): () => MemoryReading;
  stop(): Promise<void>;
  /** Whether memory and event loop are the server's alone. */
  separate: boolean;
}

function inProcessTarget(app: FastifyInstance): BenchTarget {
  return {
    async request(method, url, { headers = {}, body } = {}) {
      const res = await app.inject({ method: method as "GET", url, headers, payload: body as FormData });
      return { statusCode: res.statusCode, body: res.body, json: <T>() => res.json<T>() };
    },
    async probe() {
      const stop = startProbe();
      return async () => stop();
    },
    watchMemory: () => watchProcessMemory("self"),
    stop: () => app.close(),
    separate: false,
  };
}

/**
 * Runs `fn` against a target started for it and stopped after it: the server in a process of
 * its own (on the embedded engine this process lets go of the data folder meanwhile, and the
 * engine's handle is a new one afterwards), or, with a statement timer, the app in this
 * process on the bench's own handle.
 */
export async function withTarget<T>(
  engine: BenchEngine,
  opts: { log: (line: string) => void; timer: ReturnType<typeof statementTimer> | null },
  fn: (target: BenchTarget) => Promise<T>,
): Promise<T> {
  const { timer } = opts;
  const run = async () => {
    const target = timer
      ? inProcessTarget(await startApp({ ...engine.database, db: engine.database.db.withPlugin(timer.plugin) }))
      : { ...(await startServerProcess({ ...engine.server, log: opts.log })), separate: true };
    try {
      return await fn(target);
    } finally {
      await target.stop();
    }
  };
  return timer ? run() : engine.released(run);
}

export async function signInTo(target: BenchTarget, username: string): Promise<Headers> {
  const res = await target.request("POST", "/api/auth/login", { body: { login: username, password: BENCH_PASSWORD } });
  if (res.statusCode !== 200) throw new Error(`sign-in as ${username} failed: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return { authorization: `Bearer ${res.json<SignedInResponse>().token}` };
}

/** One step timed by the clock here, and measured inside the server by its probe. */
export async function stepOn<T>(target: BenchTarget, fn: () => Promise<T>): Promise<Step & { value: T; reading: ProbeReading }> {
  const stop = await target.probe();
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  const reading = await stop();
  // With BENCH_HOLDS set, where the loop was held: to read against a --cpu-prof profile.
  if (process.env.BENCH_HOLDS) appendFileSync(process.env.BENCH_HOLDS, `${JSON.stringify(reading.longestHolds)}\n`);
  return { ms, cpuMs: reading.cpuMs, loop: reading.loop, value, reading };
}

export const stepOf = (s: Step): Step => ({ ms: s.ms, cpuMs: s.cpuMs, loop: s.loop });
