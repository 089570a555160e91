import type { Socket } from "node:net";
import { Writable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { openSocket, socketAnswer } from "../test/raw-sockets.js";
import { listening, useTestApp } from "../test/test-app.js";
import { serverLoggerOptions } from "./lib/request-log.js";

// Idle connections may not hold the connection slots (lib/connection-guard.ts), over real
// sockets on loopback: a limit of 20 connections, 8 per client address (pressure from 15 on).
// The server listens on 127.0.0.1; the other client addresses are loopback sources
// (127.0.0.2, 127.0.0.3) of connections to it.

let log = "";
const capture = new Writable({
  write(chunk, _encoding, done) {
    log += String(chunk);
    done();
  },
});
const KEEP_ALIVE_MS = 72_000;
const t = useTestApp({
  logger: serverLoggerOptions("info", capture),
  config: { httpMaxConnections: 20, httpConnectionsPerAddress: 8, streamsMaxTotal: 4, httpKeepAliveTimeoutMs: KEEP_ALIVE_MS },
});
let port = 0;

beforeAll(async () => {
  port = Number(new URL(await listening(t.app)).port);
});

const open = (from?: string) => openSocket(port, from);

/** Resolves when the connection is closed (by the server: the test closes none it waits on). */
function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    socket.on("error", () => {});
    if (socket.destroyed) resolve();
    else socket.once("close", () => resolve());
  });
}

/** A connection that sent one complete request (keep-alive), got its answer, and now waits. */
async function idleAfterOneRequest(from?: string): Promise<Socket> {
  const socket = await open(from);
  const first = new Promise<string>((resolve) => socket.once("data", (chunk) => resolve(String(chunk))));
  socket.write("GET /api/health-check HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  expect(await first).toMatch(/^HTTP\/1\.1 200/);
  return socket;
}

/** The health check over a new connection from `from`: the server's whole answer. */
async function healthCheckFrom(from?: string): Promise<string> {
  const socket = await open(from);
  const reply = socketAnswer(socket);
  socket.write("GET /api/health-check HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  return reply;
}

const connections = () =>
  new Promise<number>((resolve, reject) => t.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
async function untilConnections(n: number): Promise<void> {
  while ((await connections()) !== n) await new Promise((r) => setTimeout(r, 10));
}

describe("idle connections and the connection limit", () => {
  it("gives one address at most HTTP_CONNECTIONS_PER_ADDRESS: a new one replaces its oldest idle one, and is refused when none is idle", async () => {
    await untilConnections(0);
    const held: Socket[] = [];
    for (let i = 0; i < 8; i++) held.push(await idleAfterOneRequest());
    const oldestClosed = closed(held[0] as Socket);
    // The ninth from the same address: served, in the place of that address's oldest idle one.
    expect(await healthCheckFrom()).toMatch(/^HTTP\/1\.1 200/);
    await oldestClosed;
    expect(held.slice(1).every((s) => !s.destroyed)).toBe(true);
    for (const socket of held) socket.destroy();
    await untilConnections(0);

    // Eight connections that have not finished a request yet are not idle: a ninth is refused...
    const busy: Socket[] = [];
    for (let i = 0; i < 8; i++) busy.push(await open());
    for (const socket of busy) socket.write("GET /api/health-check HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    expect(await healthCheckFrom()).toBe("");
    expect(log).toContain("connections per address reached");
    expect(busy.every((s) => !s.destroyed)).toBe(true);
    // ...while another address is served.
    expect(await healthCheckFrom("127.0.0.2")).toMatch(/^HTTP\/1\.1 200/);
    for (const socket of busy) socket.destroy();
    await untilConnections(0);
  });

  it("closes idle keep-alive connections and shortens the keep-alive once open connections pass 3/4 of the limit, and the health check answers", async () => {
    await untilConnections(0);
    // 14 idle connections from two addresses (7 each, under the per-address cap): all kept.
    const idle: Socket[] = [];
    for (const from of ["127.0.0.2", "127.0.0.3"]) for (let i = 0; i < 7; i++) idle.push(await idleAfterOneRequest(from));
    expect(await connections()).toBe(14);
    expect(idle.every((s) => !s.destroyed)).toBe(true);
    expect(t.app.server.keepAliveTimeout).toBe(KEEP_ALIVE_MS);

    // The 15th connection is 3/4 of 20: every idle one is closed, and the new one is answered.
    const allClosed = Promise.all(idle.map(closed));
    expect(await healthCheckFrom()).toMatch(/^HTTP\/1\.1 200/);
    await allClosed;
    expect(log).toContain("idle keep-alive connections are closed");
    await untilConnections(0);
    // Back under half the limit: the configured keep-alive again.
    expect(t.app.server.keepAliveTimeout).toBe(KEEP_ALIVE_MS);
  });

  it("keeps a connection with a request in progress when it closes the idle ones", async () => {
    await untilConnections(0);
    const idle: Socket[] = [];
    for (const from of ["127.0.0.2", "127.0.0.3"]) for (let i = 0; i < 7; i++) idle.push(await idleAfterOneRequest(from));
    // The 15th: half a request (its headers go on arriving), so it is no idle one.
    const working = await open();
    const reply = socketAnswer(working);
    working.write("GET /api/health-check HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    await Promise.all(idle.map(closed));
    expect(working.destroyed).toBe(false);
    working.write("Connection: close\r\n\r\n");
    expect(await reply).toMatch(/^HTTP\/1\.1 200/);
    await untilConnections(0);
  });
});
