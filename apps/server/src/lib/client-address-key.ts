import { isIP } from "node:net";

/**
 * A client address as the per-address caps (connections, streams) count it: an IPv4 address as it is, an
 * IPv6 one by its /64 network (one home or office is given a whole /64, and every address in it).
 */
export function clientAddressKey(ip: string): string {
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
