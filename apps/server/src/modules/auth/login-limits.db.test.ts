import { LIMITS, MESSAGES } from "@tally/contract";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { buildUser } from "../../../test/factories.js";
import { createTestApp, type TestApp, useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";
import * as passwordHash from "../../lib/password-hash.js";

// Every call of the password check is counted: a refused attempt must never reach argon2.
// A spy on the module's export, not vi.mock: the suites share one module graph per worker.
const hashCalls = { count: 0 };
const realVerifyPassword = passwordHash.verifyPassword;
const spy = vi.spyOn(passwordHash, "verifyPassword").mockImplementation((...args: Parameters<typeof realVerifyPassword>) => {
  hashCalls.count++;
  return realVerifyPassword(...args);
});
afterAll(() => spy.mockRestore());

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const t = useTestApp();
beforeEach(() => {
  hashCalls.count = 0;
});

let addressCounter = 0;
/** Each test signs in from its own addresses so one test's counters cannot leak into another. */
const freshAddress = () => `10.2.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

function signIn(
  app: TestApp,
  login: string,
  password: string,
  opts: { ip: string; headers?: Record<string, string> },
) {
  return app.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { login, password },
    remoteAddress: opts.ip,
    headers: opts.headers,
  });
}

const statuses = (replies: Array<{ statusCode: number }>) => {
  const counts: Record<number, number> = {};
  for (const r of replies) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
  return counts;
};

async function historyOf(app: TestApp, ip: string) {
  return app.db
    .selectFrom("login_logs")
    .select(["user_id", "login", "successful", "failure_reason"])
    .where("ip_address", "=", ip)
    .orderBy("id")
    .execute();
}

describe("sign-in limits under a burst", () => {
  it("lets only loginFailuresPerClient of 80 parallel wrong sign-ins from one address across accounts reach the password hash", async () => {
    const ip = freshAddress();
    const replies = await Promise.all(
      Array.from({ length: 80 }, (_, i) => signIn(t, `stuffed-${i}@example.test`, "guess-123", { ip })),
    );
    expect(hashCalls.count).toBe(LIMITS.loginFailuresPerClient);
    expect(statuses(replies)).toEqual({ 401: LIMITS.loginFailuresPerClient, 429: 80 - LIMITS.loginFailuresPerClient });
    for (const refused of replies.filter((r) => r.statusCode === 429)) {
      expect(refused.json()).toEqual({ error: MESSAGES.tooManyAttempts, code: "RATE_LIMITED" });
      expect(refused.headers["retry-after"]).toBe(String(LIMITS.loginFailureWindowMinutes * 60));
    }
    const logs = await historyOf(t, ip);
    expect(logs).toHaveLength(80);
    expect(logs.filter((l) => l.failure_reason === "rate_limited")).toHaveLength(80 - LIMITS.loginFailuresPerClient);
  });

  it("lets only loginFailuresPerAccount of 100 parallel wrong guesses at one account from one address reach the password hash", async () => {
    const ip = freshAddress();
    const user = await buildUser(t.db, { role: "admin" });
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) => signIn(t, user.username, `guess-${i}`, { ip })),
    );
    expect(hashCalls.count).toBe(LIMITS.loginFailuresPerAccount);
    expect(statuses(replies)).toEqual({ 401: LIMITS.loginFailuresPerAccount, 429: 100 - LIMITS.loginFailuresPerAccount });
    const logs = await historyOf(t, ip);
    expect(logs.every((l) => l.user_id === user.id)).toBe(true);
    expect(logs.filter((l) => l.failure_reason === "rate_limited")).toHaveLength(100 - LIMITS.loginFailuresPerAccount);
  });
});

describe("sign-in limits keyed by account and address", () => {
  it("does the same password-hash work for an unknown account, a wrong password and a deactivated account", async () => {
    const ip = freshAddress();
    const active = await buildUser(t.db, { role: "admin" });
    const inactive = await buildUser(t.db, { role: "admin", isActive: false });
    const replies = [];
    for (const [login, password] of [
      ["nobody-at-all", "whatever-1"],
      [active.username, "not-the-password"],
      [inactive.username, inactive.password],
    ] as const) {
      const before = hashCalls.count;
      replies.push(await signIn(t, login, password, { ip }));
      expect(hashCalls.count - before, login).toBe(1);
    }
    expect(new Set(replies.map((r) => `${r.statusCode} ${r.body}`)).size).toBe(1);
  });

  it("a stranger's failures from one address do not lock the owner out from another; the stranger's next try is 429 without hashing", async () => {
    const user = await buildUser(t.db, { role: "super_admin", username: `admin-${addressCounter}` });
    const stranger = freshAddress();
    const owner = freshAddress();
    for (let i = 0; i < LIMITS.loginFailuresPerAccount; i++) {
      expect((await signIn(t, user.username, `guess-${i}`, { ip: stranger })).statusCode).toBe(401);
    }
    expect(hashCalls.count).toBe(LIMITS.loginFailuresPerAccount);

    // By e-mail this time: the limit follows the account, not the text typed.
    const blocked = await signIn(t, user.email.toUpperCase(), user.password, { ip: stranger });
    expect(blocked.statusCode).toBe(429);
    expect(hashCalls.count).toBe(LIMITS.loginFailuresPerAccount);

    const ownerIn = await signIn(t, user.username, user.password, { ip: owner });
    expect(ownerIn.statusCode).toBe(200);
    expect(hashCalls.count).toBe(LIMITS.loginFailuresPerAccount + 1);

    // The owner's success does not lift the stranger's lock.
    expect((await signIn(t, user.username, "another-guess", { ip: stranger })).statusCode).toBe(429);
    expect(hashCalls.count).toBe(LIMITS.loginFailuresPerAccount + 1);
    expect((await historyOf(t, stranger)).at(-1)).toEqual({
      user_id: user.id,
      login: user.username.toLowerCase(),
      successful: false,
      failure_reason: "rate_limited",
    });
  });

  it("limits guesses at an unknown account name the same way, so the limit reveals nothing", async () => {
    const ip = freshAddress();
    for (let i = 0; i < LIMITS.loginFailuresPerAccount; i++) {
      expect((await signIn(t, "Ghost-Account", `guess-${i}`, { ip })).statusCode).toBe(401);
    }
    expect((await signIn(t, "ghost-account", "guess", { ip })).statusCode).toBe(429);
    expect((await signIn(t, "ghost-account", "guess", { ip: freshAddress() })).statusCode).toBe(401);
    expect(hashCalls.count).toBe(LIMITS.loginFailuresPerAccount + 1);
  });

  it("slows credential stuffing from one address, yet an account that signed in from there before gets in and other addresses are unaffected", async () => {
    const school = freshAddress();
    const elsewhere = freshAddress();
    const regular = await buildUser(t.db, { role: "school_user" });
    const newcomer = await buildUser(t.db, { role: "school_user" });
    expect((await signIn(t, regular.username, regular.password, { ip: school })).statusCode).toBe(200);

    for (let i = 0; i < LIMITS.loginFailuresPerClient; i++) {
      expect((await signIn(t, `victim-${i}`, "Password1", { ip: school })).statusCode).toBe(401);
    }
    hashCalls.count = 0;
    expect((await signIn(t, "victim-next", "Password1", { ip: school })).statusCode).toBe(429);
    // A newcomer with no history at this address waits out the window like the run does.
    expect((await signIn(t, newcomer.username, newcomer.password, { ip: school })).statusCode).toBe(429);
    expect(hashCalls.count).toBe(0);

    expect((await signIn(t, regular.username, regular.password, { ip: school })).statusCode).toBe(200);
    expect((await signIn(t, newcomer.username, newcomer.password, { ip: elsewhere })).statusCode).toBe(200);
    expect((await signIn(t, "victim-next", "Password1", { ip: elsewhere })).statusCode).toBe(401);
  });

  it("never counts a successful sign-in as a failure, and a success clears its own account's failures", async () => {
    const ip = freshAddress();
    const user = await buildUser(t.db, { role: "district_user" });
    for (let i = 0; i < LIMITS.loginFailuresPerClient - 1; i++) {
      expect((await signIn(t, `typo-${i}`, "wrong", { ip })).statusCode).toBe(401);
    }
    // First sign-in from this address: it takes the last place on the address counter, then gives it back.
    expect((await signIn(t, user.username, user.password, { ip })).statusCode).toBe(200);
    expect((await signIn(t, "typo-last", "wrong", { ip })).statusCode).toBe(401);
    expect((await signIn(t, "typo-over", "wrong", { ip })).statusCode).toBe(429);

    const other = freshAddress();
    for (let i = 0; i < LIMITS.loginFailuresPerAccount - 1; i++) {
      expect((await signIn(t, user.username, "wrong", { ip: other })).statusCode).toBe(401);
    }
    expect((await signIn(t, user.username, user.password, { ip: other })).statusCode).toBe(200);
    for (let i = 0; i < LIMITS.loginFailuresPerAccount; i++) {
      expect((await signIn(t, user.username, "wrong", { ip: other })).statusCode).toBe(401);
    }
    expect((await signIn(t, user.username, user.password, { ip: other })).statusCode).toBe(429);
  });

  it("without a trusted proxy ignores X-Forwarded-For: rotated values all count against the socket address, which the history records", async () => {
    const ip = freshAddress();
    const user = await buildUser(t.db, { role: "admin" });
    for (let i = 0; i < LIMITS.loginFailuresPerAccount; i++) {
      const res = await signIn(t, user.username, "wrong", { ip, headers: { "x-forwarded-for": `198.51.100.${i + 1}` } });
      expect(res.statusCode).toBe(401);
    }
    const rotated = await signIn(t, user.username, user.password, { ip, headers: { "x-forwarded-for": "198.51.100.77" } });
    expect(rotated.statusCode).toBe(429);
    const logs = await t.db
      .selectFrom("login_logs")
      .select("ip_address")
      .where("user_id", "=", user.id)
      .execute();
    expect(logs.map((l) => l.ip_address)).toEqual(Array(LIMITS.loginFailuresPerAccount + 1).fill(ip));
  });
});

/** Forwarded values that are no IP address, a different one for each i. */
const garbage = (i: number) => [`<script>${i}</script>`, `=cmd|' /C calc'!A${i}`, `${"x".repeat(9_000)}${i}`, `1.2.3.${i}:80`][i % 4]!;

describe.each([
  ["a hop count", 1],
  ["an address list", ["127.0.0.1"]],
] as const)("through a proxy trusted by %s", (_label, trustProxy) => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await createTestApp({ config: { trustProxy: typeof trustProxy === "number" ? trustProxy : [...trustProxy] } });
  });
  afterAll(async () => {
    await proxied?.close();
  });

  const viaProxy = (login: string, password: string, forwardedFor: string) =>
    signIn(proxied, login, password, { ip: "127.0.0.1", headers: { "x-forwarded-for": forwardedFor } });

  it("counts rotated client-supplied X-Forwarded-For entries as the address the proxy appended, and records it", async () => {
    const user = await buildUser(proxied.db, { role: "admin" });
    for (let i = 0; i < LIMITS.loginFailuresPerAccount; i++) {
      expect((await viaProxy(user.username, "wrong", `192.0.2.${i + 1}, 203.0.113.7`)).statusCode).toBe(401);
    }
    hashCalls.count = 0;
    expect((await viaProxy(user.username, user.password, "192.0.2.200, 203.0.113.7")).statusCode).toBe(429);
    expect(hashCalls.count).toBe(0);

    // Another real client (a different address appended by the proxy) is counted apart.
    expect((await viaProxy(user.username, user.password, "192.0.2.1, 203.0.113.8")).statusCode).toBe(200);

    const logs = await proxied.db
      .selectFrom("login_logs")
      .select(["ip_address", "successful", "failure_reason"])
      .where("user_id", "=", user.id)
      .orderBy("id")
      .execute();
    expect(logs).toEqual([
      ...Array.from({ length: LIMITS.loginFailuresPerAccount }, () => ({
        ip_address: "203.0.113.7",
        successful: false,
        failure_reason: "wrong_password",
      })),
      { ip_address: "203.0.113.7", successful: false, failure_reason: "rate_limited" },
      { ip_address: "203.0.113.8", successful: true, failure_reason: null },
    ]);
  });

  it("limits a stuffing run behind the proxy by its real address, not by the rotated entries", async () => {
    for (let i = 0; i < LIMITS.loginFailuresPerClient; i++) {
      expect((await viaProxy(`stuffed-${i}`, "wrong", `100.64.${i}.${i}, 203.0.113.9`)).statusCode).toBe(401);
    }
    expect((await viaProxy("stuffed-next", "wrong", "100.64.99.99, 203.0.113.9")).statusCode).toBe(429);
    expect((await viaProxy("stuffed-next", "wrong", "100.64.99.99, 203.0.113.10")).statusCode).toBe(401);
  });

  it("meets the address limit with a rotating forwarded value that is no address: it counts, and is recorded, as the socket's", async () => {
    // A proxy that passes on what the client sent: no value may become a key of its own.
    for (let i = 0; i < LIMITS.loginFailuresPerClient; i++) {
      expect((await viaProxy(`rotated-${i}`, "wrong", garbage(i))).statusCode).toBe(401);
    }
    hashCalls.count = 0;
    expect((await viaProxy("rotated-next", "wrong", garbage(LIMITS.loginFailuresPerClient))).statusCode).toBe(429);
    expect(hashCalls.count).toBe(0);
    const logs = await proxied.db
      .selectFrom("login_logs")
      .select("ip_address")
      .where("login", "like", "rotated-%")
      .execute();
    expect(logs.map((l) => l.ip_address)).toEqual(Array(LIMITS.loginFailuresPerClient + 1).fill("127.0.0.1"));
  });
});

describe("sign-in limit windows", () => {
  const clock = manualClock(new Date("2026-05-04T08:00:00Z"));
  let timed: TestApp;
  beforeAll(async () => {
    timed = await createTestApp({ clock });
  });
  afterAll(async () => {
    await timed?.close();
  });

  it("lifts a lock when its window has passed, and not before", async () => {
    const ip = freshAddress();
    const user = await buildUser(timed.db, { role: "admin" });
    for (let i = 0; i < LIMITS.loginFailuresPerAccount; i++) {
      expect((await signIn(timed, user.username, "wrong", { ip })).statusCode).toBe(401);
      clock.advance(MINUTE);
    }
    // Refused tries do not push the window on.
    clock.advance((LIMITS.loginFailureWindowMinutes - LIMITS.loginFailuresPerAccount - 1) * MINUTE);
    expect((await signIn(timed, user.username, user.password, { ip })).statusCode).toBe(429);
    clock.advance(MINUTE);
    expect((await signIn(timed, user.username, user.password, { ip })).statusCode).toBe(200);
  });

  it("lifts an address lock when its window has passed", async () => {
    const ip = freshAddress();
    for (let i = 0; i < LIMITS.loginFailuresPerClient; i++) {
      expect((await signIn(timed, `someone-${i}`, "wrong", { ip })).statusCode).toBe(401);
    }
    expect((await signIn(timed, "someone-else", "wrong", { ip })).statusCode).toBe(429);
    clock.advance(LIMITS.loginFailureWindowMinutes * MINUTE);
    expect((await signIn(timed, "someone-else", "wrong", { ip })).statusCode).toBe(401);
  });

  it("exempts an account from the address limit only while its last sign-in from there is recent", async () => {
    const ip = freshAddress();
    const user = await buildUser(timed.db, { role: "school_user" });
    expect((await signIn(timed, user.username, user.password, { ip })).statusCode).toBe(200);
    clock.advance((LIMITS.loginKnownAddressDays + 1) * DAY);
    for (let i = 0; i < LIMITS.loginFailuresPerClient; i++) {
      expect((await signIn(timed, `stale-${i}`, "wrong", { ip })).statusCode).toBe(401);
    }
    expect((await signIn(timed, user.username, user.password, { ip })).statusCode).toBe(429);
  });
});
