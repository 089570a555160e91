import { Readable } from "node:stream";
import { MESSAGES } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { useSignedIn, useTestApp } from "../../test/test-app.js";
import { findNul } from "./input-guard.js";

const t = useTestApp();
const admin = useSignedIn(t, { role: "admin" });

const NUL = "\u0000";

describe("a NUL character in any input", () => {
  it.each([
    ["login", { method: "POST", url: "/api/auth/login", payload: { login: `admin${NUL}`, password: "whatever-1" } }, "body.login"],
    ["login password", { method: "POST", url: "/api/auth/login", payload: { login: "admin", password: `pw${NUL}` } }, "body.password"],
    ["forgot-password", { method: "POST", url: "/api/auth/forgot-password", payload: { email: `a${NUL}@example.test` } }, "body.email"],
    ["a query string", { method: "GET", url: "/api/students?q=%00", auth: true }, "querystring.q"],
    ["a token query", { method: "GET", url: "/api/auth/verify-reset-token?token=abc%00" }, "querystring.token"],
    ["a path parameter", { method: "GET", url: "/api/students/1%00", auth: true }, "params.id"],
    ["a user path parameter", { method: "PUT", url: "/api/users/%00", auth: true, payload: { username: "someone" } }, "params.id"],
    [
      "a nested JSON field",
      { method: "POST", url: "/api/auth/register", auth: true, payload: { username: "nul-user", role: "district_user", school_ids: [1], meta: { tags: ["ok", `x${NUL}`] } } },
      "body.meta.tags.1",
    ],
  ] as const)("is refused with 400 in %s, never a 500", async (_name, req, path) => {
    const res = await t.app.inject({
      method: req.method,
      url: req.url,
      ...("payload" in req ? { payload: req.payload } : {}),
      headers: "auth" in req ? admin.headers : {},
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: MESSAGES.textHasNul, code: "VALIDATION_ERROR", details: [{ path, message: MESSAGES.textHasNul }] });
  });

  it("leaves text without NUL alone", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/students?q=%E2%9C%93", headers: admin.headers });
    expect(res.statusCode).toBe(200);
  });
});

describe("findNul", () => {
  it("looks through arrays, objects and keys, but not into buffers", () => {
    expect(findNul({ a: [{ b: "fine" }, { c: `no${NUL}` }] }, "body")).toBe("body.a.1.c");
    expect(findNul({ [`k${NUL}`]: 1 }, "body")).toBe("body");
    expect(findNul({ file: Buffer.from(`bin${NUL}ary`) }, "body")).toBeUndefined();
    expect(findNul(undefined, "body")).toBeUndefined();
    expect(findNul({ upload: Readable.from([`a${NUL}`]) }, "body")).toBeUndefined();
    const part: Record<string, unknown> = { value: "fine" };
    part.fields = { self: part, other: { value: `bad${NUL}` } };
    expect(findNul(part, "body")).toBe("body.fields.other.value");
    let deep: unknown = `x${NUL}`;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findNul(deep, "body")).toMatch(/^body(\.0)+$/);
  });
});
