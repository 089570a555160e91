import { createHash, createHmac, randomBytes } from "node:crypto";

// The opaque tokens of sign-ins and one-time links. Only their digests are stored.

/** 32 random bytes, base64url: refresh tokens and e-mailed one-time tokens. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * The refresh token that rotation hands out for `presented`. Derived rather than random, so a
 * second tab presenting the same token moments later can be given the very same successor
 * without the server ever storing a refresh token itself.
 */
export function successorRefreshToken(secret: string, presented: string): string {
  return createHmac("sha256", secret).update(`refresh-successor\0${presented}`).digest("base64url");
}

/** Only this digest is stored, so a database leak does not hand out live tokens. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
