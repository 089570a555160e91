import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { freePort } from "../../../tools/free-port.mjs";
import { newContext, type SessionState, signIn, STEP_TIMEOUT_MS, waitForPath } from "./browser";
import { DEMO_PASSWORD, snapshotBuild, spawnDemoServer, waitUntilServing } from "./global-setup";
import { type CapturedMail, startSmtpCapture } from "./smtp-capture";

// The early-warning journeys run on a server of their own: saving the alert rules raises the
// demo data's alerts (the header's ⚑, the dashboards' cards), which the worker's server must not
// show to the files that run after them; and the digest's one-per-week claims must start clean.

export type MailMessage = CapturedMail;

export interface AlertsServer {
  baseUrl: string;
  /** What reached its SMTP server, oldest first. */
  mail: MailMessage[];
  close(): Promise<void>;
}

/** How long a file's hook may wait for its own server (waitUntilServing gives up after 150 s of polling). */
export const SERVER_START_MS = 240_000;

/** The built server on a fresh demo database, its e-mail going to a real SMTP server of its own. */
export async function startAlertsServer(): Promise<AlertsServer> {
  const root = new URL("../../..", import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), "tally-e2e-alerts-"));
  const app = snapshotBuild(root, join(dir, "app"));
  const smtpPort = await freePort();
  let port = await freePort();
  while (port === smtpPort) port = await freePort();
  const mail: MailMessage[] = [];
  const smtp = await startSmtpCapture(smtpPort, (m) => mail.push(m));
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = "";
  const server: ChildProcess = spawnDemoServer(app, port, join(dir, "data"), {
    APP_URL: baseUrl,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    DEMO_PASSWORD,
    LOG_LEVEL: "warn",
  });
  server.stdout?.on("data", (d) => (output += d));
  server.stderr?.on("data", (d) => (output += d));

  const close = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((r) => server.once("exit", r));
      server.kill("SIGTERM");
      await exited;
    }
    await smtp.close();
    // The link first, by itself: removing the folder must never reach the shared node_modules.
    unlinkSync(join(app, "node_modules"));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(baseUrl, server, () => output);
  } catch (err) {
    await close();
    throw err;
  }
  return { baseUrl, mail, close };
}

export interface AlertsJourney {
  /** The file's server, once its hook has started it. */
  server(): AlertsServer;
  /** A folder of the file's own for the week's report files. */
  filesDir(): string;
  /** Browser contexts the file opens: closed after it, before its server. */
  contexts: BrowserContext[];
}

/**
 * The hooks both early-warning journeys share: a server of the file's own, started in a hook of
 * its own with room to spare (with the workers' servers seeding beside it on two cores, a fresh
 * server with the demo data can take a few minutes to answer), a folder for the week's files,
 * and, after the file, its contexts, server and folder gone. Call it before the file's hooks.
 */
export function useAlertsJourney(): AlertsJourney {
  let server: AlertsServer | undefined;
  let filesDir: string | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    server = await startAlertsServer();
  }, SERVER_START_MS);
  beforeAll(() => {
    filesDir = mkdtempSync(join(tmpdir(), "tally-alerts-week-"));
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await server?.close();
    if (filesDir) rmSync(filesDir, { recursive: true, force: true });
  });
  return { server: () => started(server, "server"), filesDir: () => started(filesDir, "folder"), contexts };
}

function started<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the journey's ${what} is not ready: its hook has not run`);
  return value;
}

/** Signs `login` in on `baseUrl` in a throw-away context and returns the session. */
export async function sessionOn(browser: Browser, baseUrl: string, login: string, home: string, password = DEMO_PASSWORD): Promise<SessionState> {
  const context = await newContext(browser, { baseUrl });
  try {
    const page = await context.newPage();
    await page.goto("/login");
    // The first paint's form stays disabled until the app has loaded; beside three servers busy
    // on two cores (an import's alerts and digests) that can outlast one step.
    await page.locator("input[name=login]:enabled").waitFor({ timeout: 4 * STEP_TIMEOUT_MS });
    await signIn(page, login, password);
    await waitForPath(page, home);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** Waits for the next message to `to` after the first `after` ones. */
export async function nextMessageTo(server: AlertsServer, to: string, after = 0): Promise<MailMessage> {
  const find = () => server.mail.slice(after).find((m) => m.to.toLowerCase() === to.toLowerCase());
  await expect.poll(() => find() !== undefined, { timeout: STEP_TIMEOUT_MS, interval: 100, message: `no e-mail to ${to} arrived` }).toBe(true);
  return find() as MailMessage;
}

/** A message's text as a person reads it: quoted-printable soft breaks and escapes undone. */
export function readableText(raw: string): string {
  const qp = raw.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < qp.length; i++) {
    const hex = qp[i] === "=" ? qp.slice(i + 1, i + 3) : "";
    if (/^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(qp[i] as string, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8").replace(/\r\n/g, "\n");
}
