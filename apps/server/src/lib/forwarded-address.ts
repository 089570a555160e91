import { createHash } from "node:crypto";
import { isIP } from "node:net";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

/** A set of the `limit` values least long unseen: memory stays bounded however many values come. */
export class RecentValues {
  private readonly values = new Map<string, true>();

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.values.size;
  }

  /** True when the value was not among them; either way it becomes the most recent. */
  add(value: string): boolean {
    const known = this.values.delete(value);
    this.values.set(value, true);
    if (this.values.size > this.limit) this.values.delete(this.values.keys().next().value as string);
    return !known;
  }
}

interface ClientAddress {
  address: string;
  /** The forwarded value that was not an IP address, when one was ignored. */
  refused?: string;
}

// Read by the request log, the audit and the sign-in limits: worked out once per request
// (a forwarded header may be 9,000 characters long).
const resolved = new WeakMap<object, ClientAddress>();

function resolve(request: FastifyRequest): ClientAddress {
  let found = resolved.get(request.raw);
  if (found) return found;
  // Fastify's ips: the socket's address, then each forwarded one the trusted proxies vouch
  // for (present only when TRUST_PROXY is set). proxy-addr takes any text there as an address.
  const walked = request.ips;
  const refused = walked?.slice(1).find((value) => isIP(value) === 0);
  found = refused === undefined ? { address: request.ip } : { address: walked?.[0] ?? request.ip, refused };
  resolved.set(request.raw, found);
  return found;
}

/**
 * The client's address: the one the proxies named by TRUST_PROXY forwarded, unless a forwarded
 * value is not an IP address (`<script>`, `=cmd|…`): then the connection's own. A client
 * rotating such values must not get a sign-in limit key, or a log line, of its own per value.
 */
export function clientAddressOf(request: FastifyRequest): string {
  return resolve(request).address;
}

/** Distinct refused values remembered as logged, per process. */
const REMEMBERED = 1_000;
/** How much of a refused value the warning shows. */
const SHOWN_CHARS = 64;

/** Warns of each distinct forwarded value that was not an IP address, once, cut short. */
export const forwardedAddressWarnings = fp(
  async (app: FastifyInstance) => {
    const logged = new RecentValues(REMEMBERED);
    app.addHook("onRequest", async (request) => {
      const { refused } = resolve(request);
      if (refused === undefined) return;
      // Remembered by digest: a thousand 9,000-character values would hold 9 MB.
      if (!logged.add(createHash("sha256").update(refused).digest("base64"))) return;
      const shown = refused.length > SHOWN_CHARS ? `${refused.slice(0, SHOWN_CHARS)}…` : refused;
      request.log.warn(
        { forwardedFor: shown, length: refused.length, remoteAddress: request.socket?.remoteAddress },
        "X-Forwarded-For holds a value that is not an IP address: ignored, the connection's address is used",
      );
    });
  },
  { name: "tally-forwarded-address-warnings" },
);
