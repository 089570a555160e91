import type { InjectOptions } from "fastify";
import { MATRIX_REQUESTS } from "./authorization-matrix.requests.js";
import { type CallerKind, type MatrixWorld, type ResourceKind, resourceId, type Target } from "./authorization-matrix.world.js";
import { type InjectedReply, injectReply } from "./inject-reply.js";
import type { TestApp } from "./test-app.js";

export type CellAnswer = InjectedReply;

let cellCount = 0;

/** Sends one cell's request: the route's valid request, as the caller, naming the target. */
export async function askCell(
  t: TestApp,
  world: MatrixWorld,
  route: { method: string; url: string },
  caller: CallerKind,
  resource: { kind: ResourceKind; target: Target } | undefined,
): Promise<CellAnswer> {
  const id = resource ? await resourceId(t, world, resource.kind, resource.target) : 0;
  const session = caller === "anonymous" ? undefined : world.sessions[caller];
  const path = route.url.replace(/:[A-Za-z]+/, String(id));
  const build = MATRIX_REQUESTS[`${route.method} ${route.url}`];
  const parts = build ? build({ path, id, world, session, unique: `${process.pid}-${++cellCount}` }) : {};
  const options: InjectOptions = {
    method: route.method as InjectOptions["method"],
    url: parts.url ?? path,
    headers: session ? { authorization: `Bearer ${session.token}` } : {},
  };
  if (parts.payload !== undefined) options.payload = parts.payload as InjectOptions["payload"];
  return await injectReply(t.app, options);
}
