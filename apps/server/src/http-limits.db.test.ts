import { Writable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { connectStream } from "../test/event-stream-client.js";
import { buildUser } from "../test/factories.js";
import { openSocket, socketAnswer } from "../test/raw-sockets.js";
import { listening, loginAs, useTestApp } from "../test/test-app.js";
import { serverLoggerOptions } from "./lib/request-log.js";

// The HTTP server's own limits (config: HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS,
// HTTP_MAX_CONNECTIONS), made short and small here, over a real socket. Every connection is a
// raw one closed by the server or by the test, so the server's connection count is known.

let log = "";
const capture = new Writable({
  write(chunk, _encoding, done) {
    log += String(chunk);
    done();
  },
});
const t = useTestApp({
  heartbeatMs: 40,
  logger: serverLoggerOptions("info", capture),
  config: { httpHeadersTimeoutMs: 200, httpRequestTimeoutMs: 400, httpMaxConnections: 3, streamsMaxTotal: 3 },
});
let baseUrl = "";
let port = 0;

beforeAll(async () => {
  baseUrl = await listening(t.app);
  port = Number(new URL(baseUrl).port);
});

const open = () => openSocket(port);

const healthCheck = "GET /api/health-check HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";

const connections = () =>
  new Promise<number>((resolve, reject) => t.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
/** Waits until the server has seen the connections the test closed go away. */
async function untilConnections(n: number): Promise<void> {
  while ((await connections()) !== n) await new Promise((r) => setTimeout(r, 10));
}

describe("HTTP server limits", () => {
  it("answers a request whose headers never finish with 408 and closes it after headersTimeout, and goes on serving", async () => {
    const socket = await open();
    const reply = socketAnswer(socket);
    socket.write("GET /api/health-check HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    expect(await reply).toMatch(/^HTTP\/1\.1 408/);

    const health = await open();
    const served = socketAnswer(health);
    health.write(healthCheck);
    expect(await served).toMatch(/^HTTP\/1\.1 200/);
    await untilConnections(0);
  });

  it("cuts a request whose body trickles in at requestTimeout (408), while an event stream lives on past it", async () => {
    const socket = await open();
    const reply = socketAnswer(socket);
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"login":',
    );
    expect(await reply).toMatch(/^HTTP\/1\.1 408/);

    // The stream's request was complete when it arrived: requestTimeout no longer applies to it.
    const session = await loginAs(t.app, await buildUser(t.db, { role: "admin" }));
    const stream = await connectStream(baseUrl, session.token);
    expect(stream.status).toBe(200);
    // 40 heartbeats 40 ms apart: four times requestTimeout at the least.
    await stream.until((r) => r.comments.filter((c) => c === "heartbeat").length >= 40);
    expect(stream.done).toBe(false);
    stream.close();
    await untilConnections(0);
  });

  it("drops connections beyond HTTP_MAX_CONNECTIONS, logs that it does, and takes new ones when some close", async () => {
    await untilConnections(0);
    // Three busy connections: event streams. (Idle keep-alive ones no longer fill the limit:
    // they are closed under pressure, idle-connections.db.test.ts.)
    const session = await loginAs(t.app, await buildUser(t.db, { role: "admin" }));
    const held = [];
    for (let i = 0; i < 3; i++) {
      const stream = await connectStream(baseUrl, session.token);
      expect(stream.status).toBe(200);
      held.push(stream);
    }
    await untilConnections(3);

    const extra = await open();
    const refused = socketAnswer(extra);
    extra.write(healthCheck);
    expect(await refused).toBe("");
    expect(log).toContain("connection limit reached");

    held[0]?.close();
    await untilConnections(2);
    const next = await open();
    const served = socketAnswer(next);
    next.write(healthCheck);
    expect(await served).toMatch(/^HTTP\/1\.1 200/);
    for (const stream of held) stream.close();
    await untilConnections(0);
  });
});
