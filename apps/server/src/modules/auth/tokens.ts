import { createHash, randomBytes } from "node:crypto";
import { LIMITS, MESSAGES } from "@tally/contract";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { unauthenticated } from "../../lib/errors.js";

const ISSUER = "tally";
const AUDIENCE = "tally";

export interface AccessClaims {
  userId: number;
  sessionVersion: number;
}

function key(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** A short-lived HS256 access token carrying the user id (sub) and session version (sv). */
export async function signAccessToken(secret: string, now: Date, claims: AccessClaims): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ sv: claims.sessionVersion })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(String(claims.userId))
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + LIMITS.accessTokenTtlSeconds)
    .sign(key(secret));
}

/**
 * Tokens already checked. A token's text never changes, so its signature check holds until
 * it expires; only the expiry is checked again (against `now`) when it comes back. Every
 * dashboard call carries the same token, and checking an HMAC through WebCrypto costs more
 * than the database read that follows it.
 */
const verified = new Map<string, { secret: string; claims: AccessClaims; exp: number }>();
const VERIFIED_CAPACITY = 5000;

function rememberVerified(token: string, secret: string, claims: AccessClaims, exp: number | undefined): void {
  if (exp === undefined) return;
  if (verified.size >= VERIFIED_CAPACITY) {
    const oldest = verified.keys().next().value;
    if (oldest !== undefined) verified.delete(oldest);
  }
  verified.set(token, { secret, claims, exp });
}

/** Checks signature, algorithm, issuer, audience and expiry against `now`; throws a 401 AppError. */
export async function verifyAccessToken(secret: string, now: Date, token: string): Promise<AccessClaims> {
  const known = verified.get(token);
  if (known && known.secret === secret && known.exp > now.getTime() / 1000) return known.claims;
  // Expired (or signed with another secret): jose gives the exact verdict below.
  if (known) verified.delete(token);
  try {
    // The algorithm is pinned so a token cannot choose how it is checked ("none", RS/HS confusion).
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: now,
    });
    const userId = Number(payload.sub);
    const sessionVersion = payload.sv;
    if (!Number.isSafeInteger(userId) || userId <= 0 || typeof sessionVersion !== "number") {
      throw unauthenticated();
    }
    const claims = { userId, sessionVersion };
    rememberVerified(token, secret, claims, payload.exp);
    return claims;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw unauthenticated(MESSAGES.sessionExpired, "TOKEN_EXPIRED");
    throw unauthenticated();
  }
}

/** 32 random bytes, base64url: refresh tokens and e-mailed one-time tokens. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Only this digest is stored, so a database leak does not hand out live tokens. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
