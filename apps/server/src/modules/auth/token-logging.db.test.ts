import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { MESSAGES } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { openStream } from "../../../test/event-stream-client.js";
import { buildUser } from "../../../test/factories.js";
import { type ReceivedMail, useSmtpTestServer } from "../../../test/smtp-test-server.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";
import { serverLoggerOptions } from "../../lib/request-log.js";

// Issue 16, point 4: opening a reset link, and the page's token checks, wrote one-time tokens
// into the server log. The auth flows run here through the server's own logger options at
// trace level, with the log captured; no token, password or link may appear in it. Issue 15
// adds the rest of a realistic day (an administrator setting a password, the live connection's
// stream and poll with ?token=) and the request id every request's lines must carry.

let log = "";
const stream = new Writable({
  write(chunk, _encoding, done) {
    log += String(chunk);
    done();
  },
});

const smtp = useSmtpTestServer();
const t = useTestApp(() => ({
  mailer: smtp.mailer,
  config: { appUrl: "https://tally.example.org" },
  logger: serverLoggerOptions("trace", stream),
}));
const admin = useSignedIn(t, { role: "admin" });
let baseUrl = "";

beforeAll(async () => {
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

function linkIn(mail: ReceivedMail, page: string): { link: string; token: string } {
  const match = new RegExp(`https://tally\\.example\\.org${page}#token=([A-Za-z0-9_-]+)`).exec(mail.text);
  if (!match?.[1]) throw new Error(`no ${page} link in: ${mail.text}`);
  return { link: match[0], token: match[1] };
}

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url, payload, headers });
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers });

describe("the server log", () => {
  it("holds no token, password or one-time link after the auth flows", async () => {
    const secrets: string[] = [];
    const user = await buildUser(t.db, { role: "school_user" });
    secrets.push(user.password);

    // Forgot password, mailed over SMTP; the token checked by GET (older clients) and POST.
    expect((await post("/api/auth/forgot-password", { email: user.email })).statusCode).toBe(200);
    const reset = linkIn(await smtp.waitForMessage((m) => m.to.includes(user.email)), "/set-password");
    secrets.push(reset.token, reset.link);
    expect((await get(`/api/auth/verify-reset-token?token=${reset.token}`)).json()).toEqual({ valid: true });
    expect((await post("/api/auth/verify-reset-token", { token: reset.token })).json()).toEqual({ valid: true });
    // An older e-mail's page link reaches the server with the token in the query.
    await get(`/set-password?token=${reset.token}`);

    const newPassword = "Fresh-Lantern-Password-77";
    secrets.push(newPassword);
    expect((await post("/api/auth/set-password", { token: reset.token, password: newPassword })).statusCode).toBe(200);
    const session = await post("/api/auth/login", { login: user.username, password: newPassword });
    expect(session.statusCode).toBe(200);
    const { token: accessToken, refreshToken } = session.json<{ token: string; refreshToken: string }>();
    secrets.push(accessToken, refreshToken);
    expect((await get("/api/auth/profile", { authorization: `Bearer ${accessToken}` })).statusCode).toBe(200);
    const refreshed = await post("/api/auth/refresh", { refreshToken });
    expect(refreshed.statusCode).toBe(200);
    secrets.push(refreshed.json<{ refreshToken: string }>().refreshToken);
    expect((await post("/api/auth/login", { login: user.username, password: "Wrong-Guess-Password-1" })).statusCode).toBe(401);
    secrets.push("Wrong-Guess-Password-1");

    // Two new accounts, verified by POST and by the older GET form.
    for (const [i, how] of (["post", "get"] as const).entries()) {
      const email = `logged-${i}@example.test`;
      const password = `Registered-Pass-${i}-42`;
      secrets.push(password);
      const created = await post(
        "/api/auth/register",
        { username: `logged${i}`, email, role: "admin", password },
        admin.headers,
      );
      expect(created.statusCode).toBe(201);
      const verify = linkIn(await smtp.waitForMessage((m) => m.to.includes(email)), "/verify");
      secrets.push(verify.token, verify.link);
      const res =
        how === "post"
          ? await post("/api/auth/verify", { token: verify.token })
          : await get(`/api/auth/verify?token=${encodeURIComponent(verify.token)}`);
      expect(res.json()).toEqual({ message: MESSAGES.verifySuccess });
    }

    // An administrator sets a user's password; the user's live connection (stream and poll)
    // authenticates with ?token=, as EventSource forces it to.
    const setByAdmin = "Admin-Chosen-Password-58";
    secrets.push(setByAdmin);
    const target = await buildUser(t.db, { role: "admin" });
    const byAdmin = await post(`/api/users/${target.id}/reset-password`, { password: setByAdmin }, admin.headers);
    expect(byAdmin.statusCode).toBe(200);
    const live = await post("/api/auth/login", { login: target.username, password: setByAdmin });
    expect(live.statusCode).toBe(200);
    const liveToken = live.json<{ token: string }>().token;
    secrets.push(liveToken, live.json<{ refreshToken: string }>().refreshToken);
    const liveStream = await openStream(baseUrl, `/api/notifications?token=${liveToken}`);
    await liveStream.until((r) => r.events.length > 0);
    liveStream.close();
    expect((await get(`/api/notifications-poll?token=${liveToken}`)).statusCode).toBe(200);

    // The log did record these requests (by path), so its silence about the secrets means something.
    expect(log).toContain('"url":"/api/auth/verify-reset-token"');
    expect(log).toContain('"url":"/api/auth/verify"');
    expect(log).toContain('"url":"/set-password"');
    expect(log).toContain('"url":"/api/auth/set-password"');
    expect(log).toContain('"url":"/api/auth/login"');
    expect(log).toContain('"url":"/api/notifications"');
    expect(log).toContain('"url":"/api/notifications-poll"');
    expect(log).toContain(`"url":"/api/users/${target.id}/reset-password"`);

    for (const secret of secrets) expect(log, `the log holds ${secret}`).not.toContain(secret);
    expect(log).not.toMatch(/token=/);
    expect(log).not.toMatch(/set-password[?#]/);
  });

  it("gives every request's lines its request id, sent back in X-Request-Id", async () => {
    const before = log.length;
    const plain = await get("/api/health-check");
    const id = String(plain.headers["x-request-id"]);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    // A proxy's short, safe id is kept so the two logs can be joined; anything else is replaced.
    const joined = await get("/api/health-check", { "x-request-id": "edge-7f3a.42" });
    expect(joined.headers["x-request-id"]).toBe("edge-7f3a.42");
    for (const unsafe of ["a".repeat(65), "two words", 'x","level":60', "semi;colon"]) {
      const replaced = await get("/api/health-check", { "x-request-id": unsafe });
      expect(replaced.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    }
    const refused = await get("/api/auth/profile");
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const missing = await get("/api/no-such-route");
    expect(missing.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);

    const lines = log.slice(before).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l.reqId === id).map((l) => l.msg)).toEqual(["incoming request", "request completed"]);
    expect(lines.some((l) => l.reqId === "edge-7f3a.42")).toBe(true);
    expect(log.slice(before)).not.toContain("two words");
    // Every line of the whole file that is about a request (it has req or res) carries its id.
    const all = log.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const requestLines = all.filter((l) => "req" in l || "res" in l);
    expect(requestLines.length).toBeGreaterThan(40);
    for (const line of requestLines) expect(line.reqId, JSON.stringify(line)).toEqual(expect.any(String));
  });
});
