/**
 * The CORS decision GET /api/debug/cors reports. Allowed: no Origin (not a cross-origin browser
 * call), the request's own origin (the web app served by this server, or behind the same
 * proxy), or an origin listed in CORS_ORIGINS (a separately hosted web app).
 */
export function corsAllowed(origin: string | undefined, requestHost: string, listed: readonly string[]): boolean {
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.origin === "null") return false;
  if (parsed.host === sameSchemeHost(parsed.protocol, requestHost)) return true;
  return listed.includes(parsed.origin);
}

/** The request's Host as URL would write it for that scheme (a default port left out). */
function sameSchemeHost(protocol: string, host: string): string | undefined {
  try {
    return new URL(`${protocol}//${host}`).host;
  } catch {
    return undefined;
  }
}
