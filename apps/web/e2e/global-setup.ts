import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import type { TestProject } from "vitest/node";

export const DEMO_PASSWORD = "Demo-Passw0rd!";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    mailFile: string;
    demoPassword: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts what a person would meet: the built server on a fresh embedded database with the
 * demo data, sending its e-mail to a real local SMTP server whose messages land in a file.
 */
export default async function setup(project: TestProject) {
  const root = new URL("../../..", import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), "tally-e2e-"));
  const mailFile = join(dir, "mail.json");
  const messages: Array<{ to: string; raw: string }> = [];
  writeFileSync(mailFile, "[]");

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (c: string) => {
        raw += c;
      });
      stream.on("end", () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address).join(","), raw });
        writeFileSync(mailFile, JSON.stringify(messages));
        callback();
      });
    },
  });
  const smtpPort = await freePort();
  await new Promise<void>((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, ["apps/server/dist/server.js"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: join(dir, "data"),
      APP_URL: baseUrl,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      DEMO_SEED: "true",
      DEMO_PASSWORD,
      LOG_LEVEL: "warn",
      DATABASE_URL: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  server.stdout?.on("data", (d) => {
    output += d;
  });
  server.stderr?.on("data", (d) => {
    output += d;
  });

  const deadline = Date.now() + 150_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The server exited during start-up:\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/api/health-check`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The server did not start within 150 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }

  project.provide("baseUrl", baseUrl);
  project.provide("mailFile", mailFile);
  project.provide("demoPassword", DEMO_PASSWORD);

  return async () => {
    server.kill("SIGTERM");
    await new Promise((r) => (server.exitCode !== null ? r(null) : server.once("exit", r)));
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  };
}
