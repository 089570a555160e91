import { BlockList, isIP, type Socket } from "node:net";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import { clientAddressKey } from "./client-address-key.js";
import { throttledWarning } from "./throttled-warning.js";

// HTTP_MAX_CONNECTIONS alone lets idle connections hold every slot: a connection that sent one
// request and then waits is kept for the whole keep-alive timeout (72 s), and one that never
// sends anything is kept for ever (Node's headersTimeout only starts with a request's first
// byte). 16,100 such connections once shut out the health check and every sign-in. So, when
// Tally serves a network directly:
// - one client address (an IPv6 /64) holds at most HTTP_CONNECTIONS_PER_ADDRESS connections;
//   a new one beyond that takes the place of the address's own oldest waiting connection, or
//   is refused when all of them are busy;
// - past PRESSURE_SHARE of HTTP_MAX_CONNECTIONS the waiting connections are closed and the
//   keep-alive timeout drops to PRESSURE_KEEP_ALIVE_MS until the count is back under
//   RELIEF_SHARE, so the slots left stay free for new requests (the health check among them).
// A waiting connection is one whose last request was answered, or one that has sent nothing for
// longer than the headers timeout. Requests in progress and event streams are never closed here.

/** Share of HTTP_MAX_CONNECTIONS past which waiting connections are closed. */
export const PRESSURE_SHARE = 0.75;
/** Share below which the keep-alive timeout goes back to the configured one. */
export const RELIEF_SHARE = 0.5;
/** The keep-alive timeout under pressure: a browser's next request comes within it, an idle holder's does not. */
export const PRESSURE_KEEP_ALIVE_MS = 1_000;

export interface ConnectionGuardLimits {
  maxConnections: number;
  perAddress: number;
  keepAliveTimeoutMs: number;
  headersTimeoutMs: number;
  /** TRUST_PROXY: a proxy's connections carry many clients, so the per-address cap leaves them alone. */
  trustProxy: number | string[] | undefined;
}

interface Tracked {
  key: string;
  openedAt: number;
  /** Requests started on the connection. */
  requests: number;
}

/** Which peers are proxies (exempt from the per-address cap): all of them for a hop count. */
function proxyPeers(trustProxy: number | string[] | undefined): (address: string) => boolean {
  if (trustProxy === undefined) return () => false;
  if (typeof trustProxy === "number") return () => true;
  const list = new BlockList();
  for (const entry of trustProxy) {
    const [address = "", bits] = entry.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return (address) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    const plain = mapped ?? address;
    return isIP(plain) !== 0 && list.check(plain, isIP(plain) === 6 ? "ipv6" : "ipv4");
  };
}

/** Applies the per-address cap and the pressure rule above to `server`'s connections. */
export function guardConnections(server: Server, limits: ConnectionGuardLimits, log: FastifyBaseLogger): void {
  const tracked = new Map<Socket, Tracked>();
  const byAddress = new Map<string, Set<Socket>>();
  // Connections whose last request was answered, oldest first (a Set keeps insertion order).
  const answered = new Set<Socket>();
  // Connections that have not sent a request yet, oldest first.
  const fresh = new Set<Socket>();
  const isProxy = proxyPeers(limits.trustProxy);
  const pressureAt = Math.max(1, Math.floor(limits.maxConnections * PRESSURE_SHARE));
  const reliefAt = Math.floor(limits.maxConnections * RELIEF_SHARE);
  let underPressure = false;
  const warnAddress = throttledWarning(log, "connections per address reached: new connections from it are refused (HTTP_CONNECTIONS_PER_ADDRESS)");
  const warnPressure = throttledWarning(log, "connections near HTTP_MAX_CONNECTIONS: idle keep-alive connections are closed and the keep-alive timeout shortened");

  const silentTooLong = (socket: Socket, now: number) => (tracked.get(socket)?.openedAt ?? now) <= now - limits.headersTimeoutMs;

  /** Closes the connections that wait: every answered one, and the fresh ones silent for longer than the headers timeout. */
  const closeWaiting = () => {
    for (const socket of answered) socket.destroy();
    const now = Date.now();
    for (const socket of fresh) {
      if (!silentTooLong(socket, now)) break;
      socket.destroy();
    }
  };

  /** The address's oldest waiting connection, if any: the one a new connection may replace. */
  const waitingOf = (sockets: Set<Socket>): Socket | undefined => {
    const now = Date.now();
    for (const socket of sockets) if (answered.has(socket) || (fresh.has(socket) && silentTooLong(socket, now))) return socket;
    return undefined;
  };

  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    const key = clientAddressKey(address);
    let sockets = byAddress.get(key);
    if (sockets && sockets.size >= limits.perAddress && !isProxy(address)) {
      const replaced = waitingOf(sockets);
      if (!replaced) {
        warnAddress({ perAddress: limits.perAddress, address: key });
        socket.destroy();
        return;
      }
      replaced.destroy();
    }
    if (!sockets) byAddress.set(key, (sockets = new Set()));
    sockets.add(socket);
    tracked.set(socket, { key, openedAt: Date.now(), requests: 0 });
    fresh.add(socket);
    socket.once("close", () => {
      tracked.delete(socket);
      answered.delete(socket);
      fresh.delete(socket);
      const own = byAddress.get(key);
      own?.delete(socket);
      if (own?.size === 0) byAddress.delete(key);
      if (underPressure && tracked.size < reliefAt) {
        underPressure = false;
        server.keepAliveTimeout = limits.keepAliveTimeoutMs;
      }
    });
    if (tracked.size >= pressureAt) {
      if (!underPressure) {
        underPressure = true;
        server.keepAliveTimeout = Math.min(PRESSURE_KEEP_ALIVE_MS, limits.keepAliveTimeoutMs);
        warnPressure({ open: tracked.size, maxConnections: limits.maxConnections });
      }
      closeWaiting();
    }
  });

  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    const state = tracked.get(socket);
    if (!state) return;
    const number = (state.requests += 1);
    fresh.delete(socket);
    answered.delete(socket);
    response.once("close", () => {
      // A pipelined request started since: the connection is still busy.
      if (socket.destroyed || !tracked.has(socket) || state.requests !== number) return;
      answered.add(socket);
    });
  });
}
