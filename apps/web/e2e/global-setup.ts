import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { freePort } from "../../../tools/free-port.mjs";
import { startSmtpCapture } from "./smtp-capture";

export const DEMO_PASSWORD = "Demo-Passw0rd!";

/** One worker's own server: the journey files of a worker run one after another against it. */
export interface JourneyServer {
  baseUrl: string;
  mailFile: string;
  /** Everything the server wrote to stdout and stderr, appended as it comes. */
  serverLogFile: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** One per worker, in VITEST_POOL_ID order: read it through journeyServer() in journey-server.ts. */
    servers: JourneyServer[];
    demoPassword: string;
  }
}


/**
 * Copies the built server and web app aside, so a `npm run build` in the same checkout during
 * the run (several people share it) cannot swap the files out from under the browser.
 * The dependencies are not copied: they are loaded once, at start-up.
 */
export function snapshotBuild(root: string, to: string): string {
  for (const part of ["apps/server/dist", "apps/server/package.json", "apps/web/dist"]) {
    cpSync(join(root, part), join(to, part), { recursive: true });
  }
  symlinkSync(join(root, "node_modules"), join(to, "node_modules"), "dir");
  return to;
}

/**
 * Starts what a person would meet, once per worker: the built server on a fresh embedded
 * database with the demo data, sending its e-mail to a real local SMTP server whose messages
 * land in a file. Journey files change their server's data (settings, users, imports), so two
 * files must never share one server at the same time; a server per worker lets the files run
 * two at a time with the same isolation as one after another. The servers start side by side,
 * so the run waits for one demo seed, not one per worker.
 */
export default async function setup(project: TestProject) {
  const root = new URL("../../..", import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), "tally-e2e-"));
  const app = snapshotBuild(root, join(dir, "app"));
  const started: Array<{ server: JourneyServer; stop: () => Promise<void> }> = [];
  const stopAll = async () => {
    await Promise.all(started.map((s) => s.stop()));
    // The link first, by itself: removing the folder must never reach the shared node_modules.
    unlinkSync(join(app, "node_modules"));
    rmSync(dir, { recursive: true, force: true });
  };

  const workers = Math.max(1, project.config.maxWorkers);
  // Picked one after another and kept distinct: ports picked side by side could coincide.
  const ports = new Set<number>();
  while (ports.size < 2 * workers) ports.add(await freePort());
  const [smtpPorts, httpPorts] = [[...ports].slice(0, workers), [...ports].slice(workers)];
  const results = await Promise.allSettled(
    Array.from({ length: workers }, async (_, i) => {
      const one = await startServer(app, join(dir, `server-${i + 1}`), smtpPorts[i]!, httpPorts[i]!);
      started.push(one);
      return one;
    }),
  );
  const failed = results.find((r) => r.status === "rejected");
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  // Promise.allSettled keeps the order asked for, so servers[i] is pool id i + 1's.
  const servers = results.map((r) => (r as PromiseFulfilledResult<{ server: JourneyServer }>).value.server);
  project.provide("servers", servers);
  project.provide("demoPassword", DEMO_PASSWORD);

  return stopAll;
}

/** One server with its own SMTP server, data folder, mail file and log in `dir`; `stop` leaves `dir` for the caller. */
async function startServer(app: string, dir: string, smtpPort: number, port: number): Promise<{ server: JourneyServer; stop: () => Promise<void> }> {
  mkdirSync(dir);
  const mailFile = join(dir, "mail.json");
  const serverLogFile = join(dir, "server.log");
  writeFileSync(serverLogFile, "");
  const messages: Array<{ to: string; raw: string }> = [];
  writeFileSync(mailFile, "[]");

  const smtp = await startSmtpCapture(smtpPort, (message) => {
    messages.push(message);
    writeFileSync(mailFile, JSON.stringify(messages));
  });

  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawnDemoServer(app, port, join(dir, "data"), {
    APP_URL: baseUrl,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    DEMO_PASSWORD,
    // Every request is logged, as in production, so journeys can check what the log keeps.
    LOG_LEVEL: "info",
  });
  let output = "";
  const capture = (d: Buffer | string) => {
    output += d;
    appendFileSync(serverLogFile, d);
  };
  server.stdout?.on("data", capture);
  server.stderr?.on("data", capture);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (server.exitCode !== null) console.error(`The server at ${baseUrl} stopped during the run:\n${output}`);
    else if (server.signalCode === null) {
      server.kill("SIGTERM");
      await new Promise((r) => server.once("exit", r));
    }
    await smtp.close();
  };

  try {
    await waitUntilServing(baseUrl, server, () => output);
  } catch (err) {
    await stop();
    throw err;
  }
  return { server: { baseUrl, mailFile, serverLogFile }, stop };
}

/**
 * The built server of `cwd` on `port`, seeding the demo data into a fresh embedded database in
 * `dataDir` (never the PostgreSQL a DATABASE_URL in the environment names); `env` adds the rest.
 */
export function spawnDemoServer(cwd: string, port: number, dataDir: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ["apps/server/dist/server.js"], {
    cwd,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DEMO_SEED: "true", DATABASE_URL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

export async function waitUntilServing(baseUrl: string, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The server exited during start-up:\n${output()}`);
    try {
      const res = await fetch(`${baseUrl}/api/health-check`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The server did not start within 150 s:\n${output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
