import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStream } from "../../../test/event-stream-client.js";
import { buildSchool, buildUser } from "../../../test/factories.js";
import { createTestApp, loginAs, type TestApp } from "../../../test/test-app.js";
import { testDatabaseUrl } from "../../config.js";
import { type DatabaseHandle, openDatabase } from "../../db/connection.js";

// Two app instances on one database, as behind a load balancer: a change made through A
// reaches the streams B holds. On PostgreSQL each instance has its own pool and its own
// LISTEN connection, so the event crosses through NOTIFY; the embedded database belongs to one
// process, so there the two apps share its handle (the same LISTEN path through the worker).
const databaseUrl = testDatabaseUrl();
let a: TestApp;
let b: TestApp;
let secondHandle: DatabaseHandle | undefined;
let baseB = "";

beforeAll(async () => {
  a = await createTestApp();
  if (databaseUrl) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(a.db);
    secondHandle = await openDatabase({ databaseUrl, schema: rows[0]?.schema, poolSize: 2 });
  }
  b = await createTestApp({ database: secondHandle ?? a.database });
  await b.app.listen({ port: 0, host: "127.0.0.1" });
  baseB = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await b?.app.close();
  await secondHandle?.close();
  await a?.close();
});

async function districtUser() {
  const school = await buildSchool(a.db);
  return buildUser(a.db, { role: "district_user", schoolIds: [school.id] });
}

describe("notifications across instances", () => {
  it("a deactivation through instance A ends the user's stream held by instance B", async () => {
    const admin = await loginAs(a.app, await buildUser(a.db, { role: "admin" }));
    const user = await districtUser();
    const session = await loginAs(b.app, user);
    const s = await openStream(baseB, `/api/notifications?token=${session.token}`);
    await s.until((r) => r.events.length > 0);
    expect(s.events[0]?.type).toBe("CONNECTED");

    const res = await a.app.inject({ method: "POST", url: `/api/users/${user.id}/deactivate`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    await s.ended;
    expect(s.events.at(-1)).toMatchObject({ type: "FORCE_LOGOUT", reason: "ACCOUNT_DEACTIVATED" });
  });

  it("a sign-out through instance A ends that sign-in's stream held by instance B", async () => {
    const user = await districtUser();
    const session = await loginAs(a.app, user);
    const s = await openStream(baseB, `/api/notifications?token=${session.token}`);
    await s.until((r) => r.events.length > 0);
    expect(s.events[0]?.type).toBe("CONNECTED");

    const res = await a.app.inject({ method: "POST", url: "/api/auth/logout", payload: { refreshToken: session.refreshToken } });
    expect(res.statusCode).toBe(200);
    await s.ended;
    expect(s.events.at(-1)).toMatchObject({ type: "STREAM_CLOSED", reason: "SIGNED_OUT" });
  });

  it.runIf(databaseUrl)("PostgreSQL: the listener reconnects when its connection is killed, and catches up on what it missed", async () => {
    const admin = await loginAs(a.app, await buildUser(a.db, { role: "admin" }));
    const user = await districtUser();
    const session = await loginAs(b.app, user);
    const s = await openStream(baseB, `/api/notifications?token=${session.token}`);
    await s.until((r) => r.events.length > 0);

    // Kill B's LISTEN connection (A has its own on the same channel; B's is the other one).
    const { rows: channel } = await sql<{ name: string }>`select 'tally_notifications_' || current_schema() as name`.execute(a.db);
    const listenQuery = `listen "${channel[0]?.name}"`;
    const { rows: listeners } = await sql<{ pid: number }>`
      select pid from pg_stat_activity where query = ${listenQuery} order by backend_start`.execute(a.db);
    expect(listeners).toHaveLength(2);
    for (const l of listeners) await sql`select pg_terminate_backend(${l.pid})`.execute(a.db);

    // Committed while no listener is connected: only the catch-up after reconnecting can deliver it.
    const res = await a.app.inject({ method: "PUT", url: `/api/users/${user.id}`, headers: admin.headers, payload: { role: "admin" } });
    expect(res.statusCode).toBe(200);
    await s.ended;
    expect(s.events.at(-1)).toMatchObject({ type: "FORCE_LOGOUT", reason: "ACCOUNT_CHANGED" });
  });
});
