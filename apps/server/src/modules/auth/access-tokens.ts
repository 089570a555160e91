import { LIMITS, MESSAGES } from "@tally/contract";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { unauthenticated } from "../../lib/errors.js";

const ISSUER = "tally";
const AUDIENCE = "tally";

export interface AccessClaims {
  userId: number;
  sessionVersion: number;
  /** The sign-in (refresh token family) this token belongs to: signing out ends it. */
  sessionId: string;
  /**
   * The sign-in was made with two factors at a single sign-on provider (its `amr`): claim `mf`,
   * present only when true. A token without it (every token before the claim existed) is one factor.
   */
  providerTwoFactor: boolean;
}

// Instances sharing one PostgreSQL may disagree on the time by a little: a token issued "in the
// future" by up to this much is still accepted.
const CLOCK_SKEW_SECONDS = 30;

function key(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/**
 * A short-lived HS256 access token carrying the user id (sub), session version (sv), sign-in
 * (sid) and, for a sign-in the provider made with two factors, `mf: true`.
 */
export async function signAccessToken(secret: string, now: Date, claims: AccessClaims): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ sv: claims.sessionVersion, sid: claims.sessionId, ...(claims.providerTwoFactor ? { mf: true } : {}) })
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

function rememberVerified(token: string, secret: string, claims: AccessClaims, exp: number): void {
  if (verified.size >= VERIFIED_CAPACITY) {
    const oldest = verified.keys().next().value;
    if (oldest !== undefined) verified.delete(oldest);
  }
  verified.set(token, { secret, claims, exp });
}

/**
 * Checks signature, algorithm, issuer, audience, the required claims (exp, iat, sub, sv, sid), the
 * optional `mf` (a boolean when present), and expiry and age against `now`; throws a 401 AppError.
 */
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
      requiredClaims: ["exp", "iat", "sub"],
    });
    // A token may not claim a longer life than we give, nor to come from the future: `exp`
    // years ahead, or an `iat` moved forward, would otherwise outlive every sign-out.
    const { exp = 0, iat = 0 } = payload;
    if (exp - iat > LIMITS.accessTokenTtlSeconds || iat > now.getTime() / 1000 + CLOCK_SKEW_SECONDS) {
      throw unauthenticated();
    }
    const userId = Number(payload.sub);
    const { sv: sessionVersion, sid: sessionId, mf } = payload;
    if (
      !Number.isSafeInteger(userId) ||
      userId <= 0 ||
      typeof sessionVersion !== "number" ||
      typeof sessionId !== "string" ||
      sessionId.length === 0 ||
      (mf !== undefined && typeof mf !== "boolean")
    ) {
      throw unauthenticated();
    }
    const claims = { userId, sessionVersion, sessionId, providerTwoFactor: mf === true };
    rememberVerified(token, secret, claims, exp);
    return claims;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw unauthenticated(MESSAGES.sessionExpired, "TOKEN_EXPIRED");
    throw unauthenticated();
  }
}
