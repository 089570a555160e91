import type { FastifyInstance, FastifySchema } from "fastify";
import fp from "fastify-plugin";
import { z } from "zod";
import { badRequest } from "../lib/errors.js";

/** The query parameters a route takes: the keys of its querystring schema (a zod object), or none. */
function acceptedNames(schema: FastifySchema | undefined): readonly string[] {
  const query = schema?.querystring;
  return query instanceof z.ZodObject ? Object.keys(query.shape) : [];
}

const namesCache = new WeakMap<object, readonly string[]>();
const NO_SCHEMA: FastifySchema = {};

/** At most this much of a refused name is repeated back (a name is whatever the client sent). */
const NAME_ECHO = 60;
const quoted = (name: string) => JSON.stringify(name.length > NAME_ECHO ? `${name.slice(0, NAME_ECHO)}…` : name);

/** "Unknown query parameter "schoolId". This call takes: school_id, schoolIds, …" */
export function unknownQueryMessage(unknown: readonly string[], accepted: readonly string[]): string {
  const listed = unknown.slice(0, 5).map(quoted).join(", ") + (unknown.length > 5 ? ", …" : "");
  const takes = accepted.length > 0 ? `This call takes: ${accepted.join(", ")}.` : "This call takes no query parameters.";
  return `Unknown query parameter${unknown.length > 1 ? "s" : ""} ${listed}. ${takes}`;
}

/**
 * A query parameter a route does not take is refused (400) rather than ignored: a misspelt or
 * wrongly cased filter (`schoolId` for `school_id`) would otherwise answer with everything the
 * caller may see, as if no filter had been asked for. Every documented /api route: the API
 * reference page's own files (hidden from the document) and the web app's files are left alone.
 */
export const queryGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook("preValidation", async (request) => {
    const { url, schema = NO_SCHEMA } = request.routeOptions;
    if (!url?.startsWith("/api/") || schema.hide) return;
    const given = Object.keys(request.query as Record<string, unknown>);
    if (given.length === 0) return;
    let accepted = namesCache.get(schema);
    if (!accepted) namesCache.set(schema, (accepted = acceptedNames(schema)));
    const unknown = given.filter((name) => !accepted.includes(name));
    if (unknown.length === 0) return;
    const message = unknownQueryMessage(unknown, accepted);
    throw badRequest(
      message,
      unknown.map((name) => ({ path: `querystring.${name.slice(0, NAME_ECHO)}`, message: "Unknown query parameter" })),
    );
  });
});
