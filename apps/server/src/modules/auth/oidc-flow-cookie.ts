import { createHash } from "node:crypto";
import { EncryptJWT, jwtDecrypt } from "jose";

// What the start of a single sign-on must remember for its callback (state, nonce, PKCE
// verifier, provider) travels in one cookie, encrypted and authenticated with a key derived
// from SECRET_KEY: no server-side session, so any instance can take the callback. It lives
// ten minutes, is httpOnly and is sent only to /api/auth/oidc.

export const FLOW_COOKIE = "tally_oidc";
export const FLOW_COOKIE_PATH = "/api/auth/oidc";
export const FLOW_TTL_SECONDS = 600;

export interface OidcFlow {
  provider: string;
  state: string;
  nonce: string;
  verifier: string;
}

function flowKey(secret: string): Uint8Array {
  return createHash("sha256").update(`oidc-flow\0${secret}`).digest();
}

export async function sealFlow(secret: string, now: Date, flow: OidcFlow): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new EncryptJWT({ p: flow.provider, s: flow.state, n: flow.nonce, v: flow.verifier })
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt(iat)
    .setExpirationTime(iat + FLOW_TTL_SECONDS)
    .encrypt(flowKey(secret));
}

/** The flow sealed in the cookie, or undefined when it is missing, tampered with or expired. */
export async function openFlow(secret: string, now: Date, sealed: string | undefined): Promise<OidcFlow | undefined> {
  if (!sealed) return undefined;
  try {
    const { payload } = await jwtDecrypt(sealed, flowKey(secret), { currentDate: now });
    const { p, s, n, v } = payload;
    if (typeof p !== "string" || typeof s !== "string" || typeof n !== "string" || typeof v !== "string") return undefined;
    return { provider: p, state: s, nonce: n, verifier: v };
  } catch {
    return undefined;
  }
}

/** The Set-Cookie value: Secure whenever Tally is served over https; SameSite=Lax so the provider's redirect back carries it. */
export function flowCookie(value: string, secure: boolean, maxAge: number = FLOW_TTL_SECONDS): string {
  const parts = [`${FLOW_COOKIE}=${value}`, `Path=${FLOW_COOKIE_PATH}`, `Max-Age=${maxAge}`, "HttpOnly", "SameSite=Lax"];
  if (secure) parts.push("Secure");
  return parts.join("; ");
}

/** One cookie's value from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
