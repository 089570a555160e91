import type { FastifySchemaCompiler } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import { z } from "zod";

// A JSON body's fields are checked as strictly as the query's names (plugins/query-guard.ts):
// a field a route does not take is refused (400 naming it), not dropped in silence, so a
// misspelt or stale field (`schoolID`, a field the server no longer reads) cannot pass for
// having been applied. Done here, where every route's body schema is compiled, so a new route
// or a schema written with plain z.object is strict without remembering to be.
//
// What stays loose, on purpose: an object the contract declares loose (z.looseObject or
// .passthrough(), i.e. a catchall that takes anything) keeps that and everything inside it.
// The contract does so for formats written by others: a browser's WebAuthn credential JSON
// carries fields that differ between browsers and grow with the standard (mfa.ts).
// An intersection's two sides are left as they are: each would refuse the other's fields.

type AnyDef = Record<string, unknown> & { type: string };
type Cloneable = z.ZodType & { clone(def: AnyDef): z.ZodType };

const defOf = (schema: z.ZodType) => (schema as unknown as { def: AnyDef }).def;

/** The schema's definition with `changes` over it, its getters (a default's value) kept as getters. */
function withDef(schema: z.ZodType, changes: Record<string, unknown>): z.ZodType {
  const def = Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(defOf(schema)), ...Object.getOwnPropertyDescriptors(changes) });
  return (schema as Cloneable).clone(def as AnyDef);
}

function strictify(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  switch (def.type) {
    case "object": {
      const catchall = def.catchall as z.ZodType | undefined;
      // A catchall other than never takes unknown fields on purpose (looseObject, passthrough, catchall).
      if (catchall && defOf(catchall).type !== "never") return schema;
      const shape = Object.fromEntries(Object.entries(def.shape as Record<string, z.ZodType>).map(([key, value]) => [key, strictify(value)]));
      return withDef(schema, { shape, catchall: z.never() });
    }
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "nonoptional":
    case "readonly":
    case "catch":
      return withDef(schema, { innerType: strictify(def.innerType as z.ZodType) });
    case "array":
      return withDef(schema, { element: strictify(def.element as z.ZodType) });
    case "union":
      return withDef(schema, { options: (def.options as z.ZodType[]).map(strictify) });
    case "pipe": {
      // z.preprocess(fn, object) is a pipe whose input is the transform: the object is its output.
      const input = def.in as z.ZodType;
      return defOf(input).type === "transform" ? withDef(schema, { out: strictify(def.out as z.ZodType) }) : withDef(schema, { in: strictify(input) });
    }
    default:
      return schema;
  }
}

const strictCache = new WeakMap<z.ZodType, z.ZodType>();

/** The body schema as the server validates it: every object in it refuses fields it does not name, but for those declared loose. */
export function strictBodySchema(schema: z.ZodType): z.ZodType {
  let strict = strictCache.get(schema);
  if (!strict) strictCache.set(schema, (strict = strictify(schema)));
  return strict;
}

/** fastify-type-provider-zod's validator compiler, with every JSON body made strict (strictBodySchema). */
export const strictBodyValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) =>
  validatorCompiler(route.httpPart === "body" && route.schema instanceof z.ZodType ? { ...route, schema: strictBodySchema(route.schema) } : route);
