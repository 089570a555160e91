import { hkdfSync } from "node:crypto";
import { errors, jwtVerify, SignJWT } from "jose";

// The one-click unsubscribe link of a digest. It is signed with a key derived from SECRET_KEY
// for this purpose only, with its own audience and a purpose claim, so it can never pass for
// an access token (other key, other audience, no session claims) and an access token can
// never pass for it. It does one thing: turn that user's digest off. It works for 60 days: long
// enough for the weeks a digest is read (RFC 8058 wants the link to keep working), short enough
// that a forwarded or archived e-mail does not carry a working link for ever. The age is counted
// from the signing time, so links signed before they had an expiry end too.

const ISSUER = "tally";
const AUDIENCE = "tally:digest-unsubscribe";
const PURPOSE = "digest_unsubscribe";

function keyFor(secretKey: string): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", secretKey, "tally", "digest-unsubscribe-link", 32));
}

/** How long an unsubscribe link works, in days. */
export const UNSUBSCRIBE_LINK_DAYS = 60;
const LINK_SECONDS = UNSUBSCRIBE_LINK_DAYS * 24 * 60 * 60;

/** The signed token of `userId`'s unsubscribe link. */
export async function signUnsubscribeToken(secretKey: string, userId: number, now: Date): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ purpose: PURPOSE })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(userId))
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + LINK_SECONDS)
    .sign(keyFor(secretKey));
}

/** What a link's token says: the user it was signed for, that it was one but has expired, or nothing (forged, altered, another kind of token). */
export type UnsubscribeTokenCheck = { userId: number } | "expired" | null;

export async function verifyUnsubscribeToken(secretKey: string, token: string, now: Date): Promise<UnsubscribeTokenCheck> {
  try {
    const { payload } = await jwtVerify(token, keyFor(secretKey), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ["sub", "iat"],
      currentDate: now,
      maxTokenAge: LINK_SECONDS,
    });
    const userId = Number(payload.sub);
    if (payload.purpose !== PURPOSE || !Number.isSafeInteger(userId) || userId <= 0) return null;
    return { userId };
  } catch (err) {
    // jose checks the signature, issuer and audience before the age: an expired one is ours.
    return err instanceof errors.JWTExpired ? "expired" : null;
  }
}
