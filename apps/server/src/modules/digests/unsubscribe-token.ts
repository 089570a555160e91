import { hkdfSync } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";

// The one-click unsubscribe link of a digest. It is signed with a key derived from SECRET_KEY
// for this purpose only, with its own audience and a purpose claim, so it can never pass for
// an access token (other key, other audience, no session claims) and an access token can
// never pass for it. It does one thing: turn that user's digest off. No expiry: an old e-mail's
// link must still work (RFC 8058), and what it can do is harmless.

const ISSUER = "tally";
const AUDIENCE = "tally:digest-unsubscribe";
const PURPOSE = "digest_unsubscribe";

function keyFor(secretKey: string): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", secretKey, "tally", "digest-unsubscribe-link", 32));
}

/** The signed token of `userId`'s unsubscribe link. */
export async function signUnsubscribeToken(secretKey: string, userId: number, now: Date): Promise<string> {
  return new SignJWT({ purpose: PURPOSE })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(userId))
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .sign(keyFor(secretKey));
}

/** The user id the token was signed for, or null for anything else (forged, altered, another kind of token). */
export async function verifyUnsubscribeToken(secretKey: string, token: string): Promise<number | null> {
  try {
    const { payload } = await jwtVerify(token, keyFor(secretKey), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ["sub"],
    });
    const userId = Number(payload.sub);
    if (payload.purpose !== PURPOSE || !Number.isSafeInteger(userId) || userId <= 0) return null;
    return userId;
  } catch {
    return null;
  }
}
