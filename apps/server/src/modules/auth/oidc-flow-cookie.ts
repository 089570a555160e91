import { createHash } from "node:crypto";
import { EncryptJWT, jwtDecrypt } from "jose";

// What the start of a single sign-on must remember for its callback (state, nonce, PKCE
// verifier, provider) travels in one cookie, encrypted and authenticated with a key derived
// from SECRET_KEY: no server-side session, so any instance can take the callback. It lives
// ten minutes, is httpOnly and is sent only to /api/auth/oidc.
//
// A second cookie, the browser's key, outlives the callback: the one-time code the callback
// ends with is stored with the key's digest (carried in the flow) and exchanged only with the
// key, so a code sent to another browser (login CSRF: an attacker's own sign-in in a victim's
// browser) is refused.

export const FLOW_COOKIE = "tally_oidc";
export const FLOW_COOKIE_PATH = "/api/auth/oidc";
export const FLOW_TTL_SECONDS = 600;
export const BROWSER_COOKIE = "tally_sso_browser";

export interface OidcFlow {
  provider: string;
  state: string;
  nonce: string;
  verifier: string;
  /** The digest of the browser's key (BROWSER_COOKIE). */
  browser: string;
}

function flowKey(secret: string): Uint8Array {
  return createHash("sha256").update(`oidc-flow\0${secret}`).digest();
}

export async function sealFlow(secret: string, now: Date, flow: OidcFlow): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new EncryptJWT({ p: flow.provider, s: flow.state, n: flow.nonce, v: flow.verifier, b: flow.browser })
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
    const { p, s, n, v, b } = payload;
    if (typeof p !== "string" || typeof s !== "string" || typeof n !== "string" || typeof v !== "string" || typeof b !== "string") return undefined;
    return { provider: p, state: s, nonce: n, verifier: v, browser: b };
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

/**
 * The Set-Cookie value of the browser's key: httpOnly, sent only to /api/auth/oidc, and
 * SameSite=Strict (only the /sso page's own request, the exchange, needs it).
 */
export function browserCookie(value: string, secure: boolean, maxAge: number = FLOW_TTL_SECONDS): string {
  const parts = [`${BROWSER_COOKIE}=${value}`, `Path=${FLOW_COOKIE_PATH}`, `Max-Age=${maxAge}`, "HttpOnly", "SameSite=Strict"];
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
