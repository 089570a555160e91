import { loginLogsResponseSchema } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { buildUser, type BuiltUser } from "../../../test/factories.js";
import { caller, useSignedIn, useTestApp } from "../../../test/test-app.js";

const t = useTestApp();
const call = caller(t);
const admin = useSignedIn(t, { role: "admin" });
let user: BuiltUser;

/** [created_at, successful] for the user's history; ids ascend with time. */
const HISTORY: Array<[string, boolean]> = [
  ["2026-03-01T00:00:00Z", true], // first instant of 1 March
  ["2026-03-01T23:59:59Z", false], // last second of 1 March
  ["2026-03-02T10:00:00Z", true],
  ["2026-03-03T08:00:00Z", false],
  ["2026-03-04T00:00:00Z", true], // first instant of 4 March
  ["2026-03-05T12:00:00Z", true],
];

function logRow(userId: number, at: string, successful: boolean) {
  return {
    user_id: userId,
    login: "someone",
    login_method: successful ? ("username" as const) : ("email" as const),
    ip_address: "203.0.113.7",
    user_agent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0",
    successful,
    failure_reason: successful ? null : "wrong_password",
    created_at: new Date(at),
  };
}

beforeAll(async () => {
  user = await buildUser(t.db, { role: "school_user" });
  const other = await buildUser(t.db, { role: "school_user" });
  await t.db.insertInto("login_logs").values(HISTORY.map(([at, ok]) => logRow(user.id, at, ok))).execute();
  // Someone else's attempts never show up in this user's history.
  await t.db.insertInto("login_logs").values([logRow(other.id, "2026-03-02T11:00:00Z", true)]).execute();
});

async function history(query = "") {
  const res = await call("GET", `/api/users/${user.id}/login-logs${query}`, admin.headers);
  expect(res.statusCode, query).toBe(200);
  const body = loginLogsResponseSchema.parse(res.json());
  return { count: body.count, times: body.rows.map((r) => r.created_at), rows: body.rows };
}

const iso = (s: string) => new Date(s).toISOString();
const newestFirst = HISTORY.toReversed().map(([at]) => iso(at));

describe("GET /api/users/:id/login-logs", () => {
  it("returns the newest ten by default with every field and the total count", async () => {
    const { count, rows, times } = await history();
    expect(count).toBe(6);
    expect(times).toEqual(newestFirst);
    expect(rows[2]).toEqual({
      id: expect.any(Number),
      created_at: iso("2026-03-03T08:00:00Z"),
      login_method: "email",
      provider: null,
      ip_address: "203.0.113.7",
      user_agent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0",
      successful: false,
      failure_reason: "wrong_password",
    });
  });

  it("pages with limit and offset while count stays the total", async () => {
    expect(await history("?limit=2")).toMatchObject({ count: 6, times: newestFirst.slice(0, 2) });
    expect(await history("?limit=2&offset=2")).toMatchObject({ count: 6, times: newestFirst.slice(2, 4) });
    expect(await history("?limit=4&offset=4")).toMatchObject({ count: 6, times: newestFirst.slice(4) });
    expect(await history("?offset=10")).toMatchObject({ count: 6, times: [] });
  });

  it("filters by outcome", async () => {
    const ok = await history("?successful=true");
    expect(ok.count).toBe(4);
    expect(ok.rows.every((r) => r.successful)).toBe(true);
    const failed = await history("?successful=false");
    expect(failed.count).toBe(2);
    expect(failed.times).toEqual([iso("2026-03-03T08:00:00Z"), iso("2026-03-01T23:59:59Z")]);
  });

  it("filters by whole days, both ends included", async () => {
    expect((await history("?start_date=2026-03-01&end_date=2026-03-01")).times).toEqual([
      iso("2026-03-01T23:59:59Z"),
      iso("2026-03-01T00:00:00Z"),
    ]);
    expect((await history("?start_date=2026-03-02&end_date=2026-03-04")).count).toBe(3);
    expect((await history("?start_date=2026-03-04")).times).toEqual([iso("2026-03-05T12:00:00Z"), iso("2026-03-04T00:00:00Z")]);
    expect((await history("?end_date=2026-03-01")).count).toBe(2);
    const combined = await history("?start_date=2026-03-02&end_date=2026-03-05&successful=true&limit=1&offset=1");
    expect(combined).toMatchObject({ count: 3, times: [iso("2026-03-04T00:00:00Z")] });
  });

  it("refuses malformed filters with 400", async () => {
    const bad = [
      "?limit=0",
      "?limit=101",
      "?limit=abc",
      "?limit=2.5",
      "?offset=-1",
      "?offset=x",
      "?successful=yes",
      "?start_date=2026-3-1",
      "?start_date=2026-02-30",
      "?end_date=tomorrow",
      "?start_date=2026-03-05&end_date=2026-03-01",
    ];
    for (const query of bad) {
      const res = await call("GET", `/api/users/${user.id}/login-logs${query}`, admin.headers);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code, query).toBe("VALIDATION_ERROR");
    }
    expect((await history("?limit=100")).count).toBe(6);
  });
});
