import type { LoginResponse } from "@tally/contract";
import { buildApp } from "@tally/server/app";
import { testConfig } from "@tally/server/config";
import type { ServerContext } from "@tally/server/context";
import type { DatabaseHandle } from "@tally/server/db/connection";
import { systemClock } from "@tally/server/lib/clock";
import { createMailer } from "@tally/server/lib/mailer";
import { databaseOutbox } from "@tally/server/modules/mail/mail.service";
import type { FastifyInstance } from "fastify";
import { BENCH_PASSWORD } from "./dataset.js";
import { type LoopDelay, watchEventLoop } from "./stats.js";

export type Headers = { authorization: string };

/** One timed step: wall time, this process's CPU time (every thread) and the event loop's longest block. */
export interface Step {
  ms: number;
  cpuMs: number;
  loop: LoopDelay;
}

/** The real app on the bench database, as the server builds it (no web files). */
export async function startApp(database: DatabaseHandle): Promise<FastifyInstance> {
  const ctx: ServerContext = {
    config: testConfig({ databaseUrl: database.engine === "postgres" ? "postgres://bench" : undefined }),
    database,
    mailer: createMailer({ from: "bench@tally.test", outbox: databaseOutbox(database.db), log: { info: () => {} } }),
    clock: systemClock,
  };
  const app = await buildApp({ ctx, webDist: "" });
  await app.ready();
  return app;
}

export async function signIn(app: FastifyInstance, username: string): Promise<Headers> {
  const res = await app.inject({ method: "POST", url: "/api/auth/login", payload: { login: username, password: BENCH_PASSWORD } });
  if (res.statusCode !== 200) throw new Error(`sign-in as ${username} failed: ${res.statusCode} ${res.body}`);
  return { authorization: `Bearer ${res.json<LoginResponse>().token}` };
}

export async function timed<T>(fn: () => Promise<T>): Promise<Step & { value: T }> {
  const loop = watchEventLoop();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, loop: loop.stop(), value };
}

export const mb = (bytes: number) => bytes / 1024 / 1024;
