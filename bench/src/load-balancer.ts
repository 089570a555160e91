import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface BalancerCounts {
  /** Requests each upstream answered. */
  answered: number[];
  /** Requests an upstream failed (connection refused or reset) and another answered instead. */
  retried: number;
  /** Requests no upstream could answer (the client got a 502). */
  failed: number;
}

export interface Balancer {
  url: string;
  kind: "nginx" | "node";
  /** What the balancer has done so far. */
  counts(): BalancerCounts;
  close(): Promise<void>;
}

/**
 * What a reverse proxy in front of several instances does, as small as the bench needs:
 * requests go round-robin; one whose instance is gone (refused, reset) is sent to the next
 * when it is safe to repeat (GET, HEAD), as nginx's proxy_next_upstream does.
 */
export async function startBalancer(upstreams: number[]): Promise<Balancer> {
  const counts: BalancerCounts = { answered: upstreams.map(() => 0), retried: 0, failed: 0 };
  const down = new Set<number>();
  let next = 0;

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, tried: Set<number>) => {
    const candidates = upstreams.map((_, i) => i).filter((i) => !tried.has(i) && !down.has(i));
    if (candidates.length === 0) {
      counts.failed++;
      res.writeHead(502).end();
      return;
    }
    const index = candidates[next++ % candidates.length] as number;
    const upstream = httpRequest(
      { host: "127.0.0.1", port: upstreams[index], method: req.method, path: req.url, headers: req.headers },
      (reply) => {
        counts.answered[index] = (counts.answered[index] ?? 0) + 1;
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on("error", () => {
      down.add(index);
      // Taken back into the rotation later: an instance that restarts is used again.
      setTimeout(() => down.delete(index), 5_000).unref();
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const repeatable = req.method === "GET" || req.method === "HEAD";
      if (repeatable) {
        counts.retried++;
        forward(req, res, body, new Set([...tried, index]));
      } else {
        counts.failed++;
        res.writeHead(502).end();
      }
    });
    upstream.end(body);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => forward(req, res, Buffer.concat(chunks), new Set()));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    kind: "node",
    counts: () => ({ ...counts, answered: [...counts.answered] }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
