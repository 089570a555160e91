import type { SignedInResponse } from "@tally/contract";
import { buildApp } from "@tally/server/app";
import { testConfig } from "@tally/server/config";
import type { ServerContext } from "@tally/server/context";
import type { DatabaseHandle } from "@tally/server/db/connection";
import { systemClock } from "@tally/server/lib/clock";
import { createMailer } from "@tally/server/lib/mailer";
import { databaseOutbox } from "@tally/server/modules/mail/mail.service";
import type { FastifyInstance } from "fastify";
import type { KyselyPlugin } from "kysely";
import { BENCH_PASSWORD } from "./dataset.js";
import type { LoopDelay } from "./stats.js";

export type Headers = { authorization: string };

/**
 * One engine's bench database: the handle this process uses, how the built server reaches the
 * same data, and a way to let go of the database while the server runs (the embedded engine
 * is one process's database; the handle is opened again afterwards).
 */
export interface BenchEngine {
  database: DatabaseHandle;
  server: { dataDir?: string; databaseUrl?: string };
  released<T>(fn: () => Promise<T>): Promise<T>;
}

/** One timed step: wall time, and the CPU time (every thread) and longest event-loop block of the process measured (the server's, read by its probe). */
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
  return { authorization: `Bearer ${res.json<SignedInResponse>().token}` };
}

export const mb = (bytes: number) => bytes / 1024 / 1024;

/**
 * Each statement of the app's, from the moment it is sent until its result is back (as the app
 * waits for it), summed by the statement's first words: where a step spends its database time.
 */
export function statementTimer() {
  const started = new Map<unknown, { at: number; text: string }>();
  const totals = new Map<string, { ms: number; count: number }>();
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      const node = args.node as { kind: string; sqlFragments?: readonly string[] };
      // Raw SQL by its text; builder queries by their kind and first table.
      const table = JSON.stringify(args.node).match(/"SchemableIdentifierNode","identifier":\{"kind":"IdentifierNode","name":"(\w+)"/)?.[1] ?? "";
      const text = (node.sqlFragments?.join("?") ?? `${node.kind} ${table}`).replace(/\s+/g, " ").trim().slice(0, 100);
      started.set(args.queryId, { at: performance.now(), text });
      return args.node;
    },
    async transformResult(args) {
      const start = started.get(args.queryId);
      if (start) {
        started.delete(args.queryId);
        const total = totals.get(start.text) ?? { ms: 0, count: 0 };
        total.ms += performance.now() - start.at;
        total.count += 1;
        totals.set(start.text, total);
      }
      return args.result;
    },
  };
  return {
    plugin,
    reset: () => totals.clear(),
    print(step: string, log: (line: string) => void) {
      log(`    slowest statements of the ${step} (summed, ×count):`);
      for (const [text, t] of [...totals].sort((a, b) => b[1].ms - a[1].ms).slice(0, 10)) {
        log(`    ${t.ms.toFixed(0).padStart(7)} ms ×${String(t.count).padEnd(4)} ${text}`);
      }
    },
  };
}

export type { GcPauses } from "./probe.js";
