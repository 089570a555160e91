import { isIP } from "node:net";

// Which stored notifications concern a stream or a poll, and how streams are counted.

/**
 * A live token's sign-in began at its `iat`, which is whole seconds. A FORCE_LOGOUT stored in
 * that same second may have ended the sign-in before this token was issued (a quick sign-in
 * again), so a live token only takes notifications from the next second on: being signed out
 * for nothing is worse than hearing of it on the next request (which gets the guard's 401).
 */
export function liveSince(issuedAt: Date): Date {
  return new Date(issuedAt.getTime() + 1000);
}

/** The Last-Event-ID header as a notification id; anything else counts as absent. */
export function parseLastEventId(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/**
 * The client address as the per-address stream cap counts it: an IPv4 address as it is, an
 * IPv6 one by its /64 network (one home or office is given a whole /64, and every address in it).
 */
export function streamAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped) return mapped;
  const address = ip.split("%")[0] ?? ip;
  if (isIP(address) !== 6) return ip;
  const [head = "", tail] = address.toLowerCase().split("::");
  const groups = head ? head.split(":") : [];
  if (tail !== undefined) {
    const after = tail ? tail.split(":") : [];
    // A trailing dotted IPv4 part fills two groups.
    const width = after.length + (after.at(-1)?.includes(".") ? 1 : 0);
    groups.push(...Array<string>(8 - groups.length - width).fill("0"), ...after);
  }
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}
