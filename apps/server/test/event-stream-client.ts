import { request } from "node:http";
import type { Notification } from "@tally/contract";

export interface StreamReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed `data:` events, in order. */
  events: Notification[];
  /** `id:` of each event, as sent. */
  ids: string[];
  /** Comment lines (heartbeats), without the leading colon. */
  comments: string[];
  /** The raw body so far (for error replies: the JSON). */
  body: string;
  /** Resolves when the server ends the reply. */
  ended: Promise<void>;
  /** True once the reply has ended (or the connection closed). */
  done: boolean;
  /** Resolves once `predicate` holds for what has arrived (checked on every chunk). */
  until(predicate: (r: StreamReply) => boolean): Promise<void>;
  close(): void;
}

/** Opens GET `path` on a listening server and reads it as an event stream, as EventSource would. */
export function openStream(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<StreamReply> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { headers: { accept: "text/event-stream", ...headers } }, (res) => {
      let buffer = "";
      const waiters: Array<{ predicate: (r: StreamReply) => boolean; done: () => void }> = [];
      let endResolve: (() => void) | undefined;
      const reply: StreamReply = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        ids: [],
        comments: [],
        body: "",
        done: false,
        ended: new Promise<void>((r) => {
          endResolve = r;
        }),
        until(predicate) {
          if (predicate(reply)) return Promise.resolve();
          return new Promise((done) => waiters.push({ predicate, done }));
        },
        close() {
          req.destroy();
        },
      };
      const check = () => {
        const met = waiters.filter((w) => w.predicate(reply));
        for (const w of met) {
          waiters.splice(waiters.indexOf(w), 1);
          w.done();
        }
      };
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        reply.body += chunk;
        buffer += chunk;
        let cut = buffer.indexOf("\n\n");
        while (cut !== -1) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) reply.comments.push(line.slice(1).trim());
            else if (line.startsWith("id:")) reply.ids.push(line.slice(3).trim());
            else if (line.startsWith("data:")) reply.events.push(JSON.parse(line.slice(5)) as Notification);
          }
          cut = buffer.indexOf("\n\n");
        }
        check();
      });
      const finish = () => {
        reply.done = true;
        endResolve?.();
        check();
      };
      res.on("end", finish);
      res.on("close", finish);
      res.on("error", finish);
      resolve(reply);
    });
    req.on("error", reject);
    req.end();
  });
}

/** GET /api/notifications with `token`, returned once the stream has said something (CONNECTED) or was refused. */
export async function connectStream(baseUrl: string, token: string, headers: Record<string, string> = {}): Promise<StreamReply> {
  const s = await openStream(baseUrl, `/api/notifications?token=${encodeURIComponent(token)}`, headers);
  await s.until((r) => r.events.length > 0 || r.status !== 200);
  return s;
}
