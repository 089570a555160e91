import { chmodSync, rmSync } from "node:fs";
import { createConnection, createServer, type Socket } from "node:net";
import { join } from "node:path";
import type { DatabaseHandle } from "../../db/connection.js";
import type { Clock } from "../../lib/clock.js";
import { takeBackup } from "./backup.service.js";

/**
 * The running server's control socket: a Unix domain socket in DATA_DIR, readable only by the
 * account that runs the server (mode 0600), through which `npm run cli -- backup` asks the
 * process that holds the embedded database for a consistent copy. One request per connection:
 * a JSON line `{"request":"backup"}`; the answer is a JSON line `{"ok":true,"bytes":N}` followed
 * by the N bytes of the backup file, or `{"ok":false,"error":"..."}`.
 */
export function controlSocketPath(dataDir: string): string {
  return join(dataDir, "tally.sock");
}

const MAX_REQUEST_BYTES = 1024;

interface ControlLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Listens on DATA_DIR/tally.sock; returns the function that stops listening and removes it. */
export async function openControlSocket(options: {
  dataDir: string;
  database: DatabaseHandle;
  clock: Clock;
  log: ControlLog;
}): Promise<() => Promise<void>> {
  const path = controlSocketPath(options.dataDir);
  // Left by a server that died: this process holds the DATA_DIR lock, so it is nobody's.
  rmSync(path, { force: true });
  const server = createServer((socket) => serve(socket, options));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => {
      server.off("error", reject);
      resolve();
    });
  });
  chmodSync(path, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      rmSync(path, { force: true });
    });
}

function serve(socket: Socket, options: { database: DatabaseHandle; clock: Clock; log: ControlLog }): void {
  let received = "";
  socket.on("error", () => {});
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    received += chunk;
    const end = received.indexOf("\n");
    if (end === -1 && received.length <= MAX_REQUEST_BYTES) return;
    // One request per connection: whatever follows it is not read.
    socket.removeAllListeners("data");
    if (end === -1) {
      reply(socket, { ok: false, error: "Request too long." });
      return;
    }
    let request: unknown;
    try {
      request = JSON.parse(received.slice(0, end));
    } catch {
      request = undefined;
    }
    if ((request as { request?: unknown } | undefined)?.request !== "backup") {
      reply(socket, { ok: false, error: 'Unknown request: the control socket answers {"request":"backup"} only.' });
      return;
    }
    const started = performance.now();
    takeBackup(options.database, options.clock.now()).then(
      (file) => {
        options.log.info({ bytes: file.byteLength, ms: Math.round(performance.now() - started) }, "backup taken for the cli");
        reply(socket, { ok: true, bytes: file.byteLength }, file);
      },
      (err: unknown) => {
        options.log.warn({ err }, "backup failed");
        reply(socket, { ok: false, error: `The server could not take the backup: ${err instanceof Error ? err.message : String(err)}` });
      },
    );
  });
}

function reply(socket: Socket, header: object, body?: Buffer): void {
  socket.write(`${JSON.stringify(header)}\n`);
  if (body) socket.write(body);
  socket.end();
}

export class ControlSocketError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ControlSocketError";
  }
}

/**
 * Asks the server holding DATA_DIR for a backup file. Undefined when no server listens there
 * (no socket, or one left by a server that died); the caller then opens the folder itself.
 */
export function requestBackup(dataDir: string): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(controlSocketPath(dataDir));
    const chunks: Buffer[] = [];
    let connected = false;
    socket.on("connect", () => {
      connected = true;
      socket.write(`${JSON.stringify({ request: "backup" })}\n`);
    });
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (err: NodeJS.ErrnoException) => {
      if (!connected && (err.code === "ENOENT" || err.code === "ECONNREFUSED")) resolve(undefined);
      else reject(new ControlSocketError(`The running server's control socket failed: ${err.message}`));
    });
    socket.on("end", () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf(0x0a);
      let header: { ok?: boolean; bytes?: number; error?: string } = {};
      try {
        header = JSON.parse(all.subarray(0, end === -1 ? all.length : end).toString("utf8"));
      } catch {
        return reject(new ControlSocketError("The running server's answer could not be read."));
      }
      if (!header.ok) return reject(new ControlSocketError(header.error ?? "The running server refused the backup."));
      const body = all.subarray(end + 1);
      if (body.byteLength !== header.bytes) {
        return reject(new ControlSocketError(`The running server's answer broke off (${body.byteLength} of ${header.bytes} bytes).`));
      }
      resolve(body);
    });
  });
}
