import { LIMITS, MESSAGES } from "@tally/contract";
import { decodeJwt, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors.js";
import { signAccessToken, verifyAccessToken } from "./access-tokens.js";

const SECRET = "a-test-secret-that-is-long-enough-0000000000";
const OTHER = "another-test-secret-long-enough-11111111111";

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code?: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return { status: err.statusCode, code: err.code, message: err.message };
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("verifyAccessToken, checked once and then remembered", () => {
  it("keeps answering with the same claims while the token is valid", async () => {
    const now = new Date("2026-11-22T10:00:00Z");
    const token = await signAccessToken(SECRET, now, { userId: 42, sessionVersion: 3, sessionId: "s-42", providerTwoFactor: false });
    expect(await verifyAccessToken(SECRET, now, token)).toEqual({ userId: 42, sessionVersion: 3, sessionId: "s-42", providerTwoFactor: false });
    const later = new Date(now.getTime() + (LIMITS.accessTokenTtlSeconds - 1) * 1000);
    expect(await verifyAccessToken(SECRET, later, token)).toEqual({ userId: 42, sessionVersion: 3, sessionId: "s-42", providerTwoFactor: false });
  });

  it("still refuses a remembered token once it has expired, with TOKEN_EXPIRED", async () => {
    const now = new Date("2026-11-22T11:00:00Z");
    const token = await signAccessToken(SECRET, now, { userId: 7, sessionVersion: 1, sessionId: "s-7", providerTwoFactor: false });
    await verifyAccessToken(SECRET, now, token);
    const expired = new Date(now.getTime() + LIMITS.accessTokenTtlSeconds * 1000);
    expect(await refusal(verifyAccessToken(SECRET, expired, token))).toEqual({
      status: 401,
      code: "TOKEN_EXPIRED",
      message: MESSAGES.sessionExpired,
    });
  });

  it("does not let a token remembered under one key pass under another", async () => {
    const now = new Date("2026-11-22T12:00:00Z");
    const token = await signAccessToken(SECRET, now, { userId: 9, sessionVersion: 1, sessionId: "s-9", providerTwoFactor: false });
    await verifyAccessToken(SECRET, now, token);
    expect((await refusal(verifyAccessToken(OTHER, now, token))).status).toBe(401);
  });

  it("never remembers a token that failed", async () => {
    const now = new Date("2026-11-22T13:00:00Z");
    const token = await signAccessToken(OTHER, now, { userId: 5, sessionVersion: 1, sessionId: "s-5", providerTwoFactor: false });
    expect((await refusal(verifyAccessToken(SECRET, now, token))).status).toBe(401);
    expect((await refusal(verifyAccessToken(SECRET, now, token))).status).toBe(401);
  });
});

describe("the claim mf: a sign-in the provider made with two factors", () => {
  it("is carried only when true, and read back", async () => {
    const now = new Date("2026-11-22T14:00:00Z");
    const two = await signAccessToken(SECRET, now, { userId: 3, sessionVersion: 1, sessionId: "s-3", providerTwoFactor: true });
    expect(decodeJwt(two).mf).toBe(true);
    expect((await verifyAccessToken(SECRET, now, two)).providerTwoFactor).toBe(true);
    // A one-factor token looks as every token did before the claim: none, read as one factor.
    const one = await signAccessToken(SECRET, now, { userId: 3, sessionVersion: 1, sessionId: "s-3b", providerTwoFactor: false });
    expect(decodeJwt(one)).not.toHaveProperty("mf");
    expect((await verifyAccessToken(SECRET, now, one)).providerTwoFactor).toBe(false);
  });

  it("refuses a signed token whose mf is not a boolean", async () => {
    const now = new Date("2026-11-22T15:00:00Z");
    const iat = Math.floor(now.getTime() / 1000);
    const token = await new SignJWT({ sv: 1, sid: "s-4", mf: "yes" })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject("4")
      .setIssuer("tally")
      .setAudience("tally")
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(new TextEncoder().encode(SECRET));
    expect((await refusal(verifyAccessToken(SECRET, now, token))).status).toBe(401);
  });
});
