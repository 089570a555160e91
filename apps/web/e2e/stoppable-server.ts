import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../../tools/free-port.mjs";
import { DEMO_PASSWORD, snapshotBuild, spawnDemoServer, waitUntilServing } from "./global-setup";

export interface StoppableServer {
  baseUrl: string;
  /** SIGTERM, and wait until the process has exited (the port is then closed). */
  stop(): Promise<void>;
  /** Starts again on the same port and data, so the browser's origin and session still fit. */
  start(): Promise<void>;
  /** Starts it again unless it runs: after a journey that failed while it was stopped. */
  ensureRunning(): Promise<void>;
  /** Stops it for good and removes its files. */
  close(): Promise<void>;
}

/**
 * A server of its own for a journey that stops it: the worker's must stay up for its other
 * files. Same build and demo data as the workers' servers (global-setup.ts), its own port and
 * embedded database.
 */
export async function startStoppableServer(options: { host?: string } = {}): Promise<StoppableServer> {
  const root = new URL("../../..", import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), "tally-e2e-own-"));
  const app = snapshotBuild(root, join(dir, "app"));
  const port = await freePort();
  // A passkey's relying party must be a domain name, never an address: that journey asks for "localhost".
  const baseUrl = `http://${options.host ?? "127.0.0.1"}:${port}`;
  let server: ChildProcess | null = null;
  let output = "";

  const start = async () => {
    output = "";
    const child = spawnDemoServer(app, port, join(dir, "data"), { APP_URL: baseUrl, DEMO_PASSWORD, LOG_LEVEL: "warn", SMTP_URL: "" });
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    server = child;
    await waitUntilServing(baseUrl, child, () => output);
  };

  const stop = async () => {
    const child = server;
    server = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };

  await start();
  return {
    baseUrl,
    stop,
    start,
    async ensureRunning() {
      if (server === null) await start();
    },
    async close() {
      await stop();
      // The link first, by itself: removing the folder must never reach the shared node_modules.
      unlinkSync(join(app, "node_modules"));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
