import { MESSAGES } from "@tally/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { badRequest } from "../lib/errors.js";

/** Where the first NUL is in a parsed value (a string, or a key or string inside objects and arrays), or undefined. */
export function findNul(value: unknown, root: string): string | undefined {
  // Paths are spelled out only when there is a NUL to report: building one for every value of
  // a 1.4 MB confirm body (75,000 of them) held the event loop for ~36 ms.
  return hasNul(value) ? pathOfNul(value, root) : undefined;
}

// Two walks rather than one with a flag: carrying a [value, path] pair for every value, even
// with the path left unspelled, held the confirm's event loop 40–50 ms instead of 30.
function hasNul(value: unknown): boolean {
  // A stack, not recursion: a megabyte of JSON can nest deeper than the call stack.
  const stack: unknown[] = [value];
  // Multipart parts point back at each other.
  const seen = new WeakSet<object>();
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") {
      if (item.includes("\u0000")) return true;
    } else if (isContainer(item) && !seen.has(item)) {
      seen.add(item);
      for (const key of Object.keys(item)) {
        if (key.includes("\u0000")) return true;
        stack.push(item[key]);
      }
    }
  }
  return false;
}

function pathOfNul(value: unknown, root: string): string | undefined {
  const stack: Array<[unknown, string]> = [[value, root]];
  const seen = new WeakSet<object>();
  while (stack.length > 0) {
    const [item, path] = stack.pop() as [unknown, string];
    if (typeof item === "string") {
      if (item.includes("\u0000")) return path;
    } else if (isContainer(item) && !seen.has(item)) {
      seen.add(item);
      for (const [key, child] of Object.entries(item)) {
        if (key.includes("\u0000")) return path;
        stack.push([child, `${path}.${key}`]);
      }
    }
  }
  return undefined;
}

// Parsed JSON, query and params (fastify's have a prototype-less class of their own). Bytes
// and streams (uploads) are not text the database stores as it comes: left alone.
function isContainer(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return false;
  return typeof (value as { pipe?: unknown }).pipe !== "function";
}

/**
 * PostgreSQL refuses NUL in text, so a NUL anywhere in a body, query or path would end as a
 * 500 on whichever route stores or looks it up: every route refuses it first, with a 400.
 */
export const inputGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook("preValidation", async (request) => {
    const where =
      findNul(request.params, "params") ?? findNul(request.query, "querystring") ?? findNul(request.body, "body");
    if (where) throw badRequest(MESSAGES.textHasNul, [{ path: where, message: MESSAGES.textHasNul }]);
  });
});
