import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";

/** A reply's status and body; an event stream that started is "(stream)". */
export interface InjectedReply {
  status: number;
  body: string;
}

const isEventStream = (url: InjectOptions["url"]) => {
  const path = String(url).split("?")[0];
  return path === "/api/notifications";
};

/**
 * Injects a request and reads the whole reply. The notification stream never ends by itself,
 * so a stream that started is read as its status and closed; a refusal of it is read whole.
 */
export async function injectReply(app: FastifyInstance, options: InjectOptions): Promise<InjectedReply> {
  if (!isEventStream(options.url)) {
    const res = await app.inject(options);
    return { status: res.statusCode, body: res.body };
  }
  const res = (await app.inject({ ...options, payloadAsStream: true })) as LightMyRequestResponse & {
    stream(): NodeJS.ReadableStream & { destroy(): void };
  };
  const stream = res.stream();
  if (res.statusCode === 200) {
    stream.destroy();
    return { status: 200, body: "(stream)" };
  }
  let body = "";
  for await (const chunk of stream) body += String(chunk);
  return { status: res.statusCode, body };
}
