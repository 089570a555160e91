import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../tools/free-port.mjs";
import { openStream } from "../test/event-stream-client.js";
import { recordingIo } from "../test/recording-io.js";
import { main as cli } from "./cli.js";
import { testDatabaseUrl } from "./config.js";

// SIGTERM with an open event stream and a request in flight, on the built server as
// `npm start` runs it: the stream is ended (so its client reconnects elsewhere), the request
// is answered, and the process exits 0 — which it can only do before its own 10 s deadline,
// after which it exits 1.
const root = fileURLToPath(new URL("../../..", import.meta.url));
const databaseUrl = testDatabaseUrl();
const schema = `t_${randomBytes(6).toString("hex")}`;
let dataDir = "";
let server: ChildProcess | undefined;
let output = "";

/** DATABASE_URL for a schema of its own (the server has no schema setting; libpq options do it). */
const serverDatabaseUrl = () => {
  if (!databaseUrl) return "";
  const url = new URL(databaseUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return url.toString();
};

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  // The test runs what `npm start` runs, so it builds it first (a few seconds).
  execFileSync("npm", ["run", "build", "-w", "@tally/contract"], { cwd: root, stdio: "ignore" });
  execFileSync("npm", ["run", "build", "-w", "@tally/server"], { cwd: root, stdio: "ignore" });
  dataDir = mkdtempSync(join(tmpdir(), "tally-shutdown-"));
  if (databaseUrl) await adminQuery(`create schema "${schema}"`);
  const env = { DATA_DIR: dataDir, DATABASE_URL: serverDatabaseUrl(), SECRET_KEY: "k".repeat(40) };
  const io = recordingIo(undefined, { env });
  const args = ["create-user", "--username", "root", "--email", "root@example.org", "--role", "super_admin", "--password", "Str0ng!Pass-9"];
  expect(await cli(args, io), io.errors.join("\n")).toBe(0);
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
  if (databaseUrl) await adminQuery(`drop schema if exists "${schema}" cascade`);
  rmSync(dataDir, { recursive: true, force: true });
});

async function waitUntilServing(baseUrl: string): Promise<void> {
  for (;;) {
    if (server?.exitCode !== null) throw new Error(`the server exited:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/api/health-check`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("graceful shutdown", () => {
  it("on SIGTERM ends the open streams, answers the request in flight and exits 0", async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ["apps/server/dist/server.js"], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        DATABASE_URL: serverDatabaseUrl(),
        SECRET_KEY: "k".repeat(40),
        DEMO_SEED: "false",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => server?.once("exit", (code) => resolve(code)));
    server.stdout?.on("data", (d) => {
      output += d;
    });
    server.stderr?.on("data", (d) => {
      output += d;
    });
    await waitUntilServing(baseUrl);

    const login = await fetch(`${baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login: "root", password: "Str0ng!Pass-9" }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const stream = await openStream(baseUrl, `/api/notifications?token=${token}`);
    await stream.until((r) => r.events.length > 0);
    expect(stream.events[0]?.type).toBe("CONNECTED");

    // A sign-in (a deliberately slow password hash) is in flight when the signal comes: sent,
    // and seen arriving in the server's log, before SIGTERM.
    const logged = output.length;
    const inFlight = fetch(`${baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login: "root", password: "Str0ng!Pass-9" }),
    });
    while (!output.slice(logged).includes('"url":"/api/auth/login"')) await new Promise((r) => setTimeout(r, 5));
    server.kill("SIGTERM");

    expect((await inFlight).status).toBe(200);
    await stream.ended;
    expect(await exited).toBe(0);
    expect(output).toContain("shutting down");
    // The stream ended cleanly (no FORCE_LOGOUT: the client is to reconnect, not sign out).
    expect(stream.events.map((e) => e.type)).toEqual(["CONNECTED"]);
  });
});
