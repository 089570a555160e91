import fc from "fast-check";
import type { z } from "zod";

/**
 * Strings that have broken parsers, databases and spreadsheets before: lone surrogates, RTL
 * overrides, NUL, BOM, combining marks, astral characters, numbers just past the database's
 * integers, formula starts, path and SQL tricks.
 */
export const HOSTILE_STRINGS = [
  "",
  " ",
  "\uD800",
  "\uDFFF",
  "a\uDC00b\uD83D",
  "\u202Eevil\u202C",
  "\u200F\u05E9\u05DC\u05D5\u05DD",
  "\u0000",
  "x\u0000y",
  "\uFEFFbom",
  "e\u0301\u0301\u0301",
  "𝕏😀👩‍👩‍👧",
  "\u2028\u2029",
  "\r\n\r\n",
  "../../etc/passwd",
  "' or 1=1 --",
  "<script>alert(1)</script>",
  "=HYPERLINK(\"http://x\")",
  "+1",
  "-1",
  "@SUM(A1)",
  "\t=1",
  "0",
  "2147483647",
  "2147483648",
  "-2147483649",
  "9007199254740993",
  "1e309",
  "1.5",
  "NaN",
  "Infinity",
  "0x10",
  " 1 ",
  "true",
  "null",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "9".repeat(400),
];

/** Escapes a query or path may carry that no encoder makes: broken, overlong and surrogate UTF-8, a raw NUL. */
export const RAW_URL_ESCAPES = ["%", "%E0%A4%A", "%ED%A0%80", "%C0%AF", "%FF%FE", "%00", "%uD800", "%25%", "a%2", "%E2%80%AE"];

export const hostileString = (): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 4 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 2 },
    { arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }), weight: 1 },
    { arbitrary: fc.constantFrom(20_000, 300_000).map((n) => "\u05E9".repeat(n)), weight: 1 },
  );

/** Values of the wrong type for any field: numbers out of range, nested junk, huge and empty things. */
export const hostileValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { arbitrary: hostileString(), weight: 4 },
    {
      arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -1, 2_147_483_648, -2_147_483_649, 1.5, 1e308, -0, [], {}, [null], { "": "" }),
      weight: 3,
    },
    { arbitrary: fc.integer(), weight: 1 },
    { arbitrary: fc.double({ noNaN: true }), weight: 1 },
    { arbitrary: fc.constantFrom(50, 2_000).map((depth) => nested(depth)), weight: 1 },
    { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
  );

/** An array nested `depth` deep around a string. */
export function nested(depth: number): unknown {
  let value: unknown = "deep";
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

interface ZodDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  keyType?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  left?: z.ZodType;
  right?: z.ZodType;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { def: ZodDef }).def;

/** The object keys a schema accepts (through optional, default, refine and pipe wrappers). */
export function keysOf(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const def = defOf(schema);
  if (def.shape) return Object.keys(def.shape);
  const inner = def.innerType ?? def.in ?? def.left;
  return inner ? keysOf(inner) : [];
}

/**
 * Values shaped by a zod schema (keys and types it names), each field sometimes replaced by a
 * hostile value: so some reach the code behind validation, others test validation itself.
 */
export function fromSchema(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  const typed = typedFrom(schema, depth);
  return fc.oneof({ arbitrary: typed, weight: 3 }, { arbitrary: hostileValue(), weight: 1 });
}

function typedFrom(schema: z.ZodType, depth: number): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  if (depth > 6) return hostileValue();
  switch (def.type) {
    case "string":
      return fc.oneof(fc.string({ maxLength: 30 }), hostileString(), fc.emailAddress());
    case "number":
    case "int":
      return fc.oneof(fc.integer({ min: -3, max: 50 }), fc.constantFrom(2_147_483_647, 2_147_483_648, 0.5, -1e9), fc.integer());
    case "boolean":
      return fc.boolean();
    case "enum":
      return fc.constantFrom(...Object.values(def.entries ?? { x: "x" }));
    case "literal":
      return fc.constantFrom(...(def.values ?? [null]));
    case "array":
      return def.element ? fc.array(fromSchema(def.element, depth + 1), { maxLength: 4 }) : fc.array(hostileValue());
    case "object":
      return fc.record(
        Object.fromEntries(Object.entries(def.shape ?? {}).map(([key, value]) => [key, fromSchema(value, depth + 1)])),
        { requiredKeys: [] },
      );
    case "record":
      return fc.dictionary(
        fc.oneof(fc.constantFrom("1", "2", "123", "0", "2147483648"), hostileString()),
        def.valueType ? fromSchema(def.valueType, depth + 1) : hostileValue(),
        { maxKeys: 4 },
      );
    case "union":
      return fc.oneof(...(def.options ?? []).map((option) => typedFrom(option, depth + 1)));
    case "intersection":
      return def.left ? typedFrom(def.left, depth + 1) : hostileValue();
    case "pipe":
      return def.in ? typedFrom(def.in, depth) : hostileValue();
    default:
      if (def.innerType) return fc.oneof(typedFrom(def.innerType, depth), fc.constant(null), fc.constant(undefined));
      return hostileValue();
  }
}

/** Percent-encodes the UTF-8 bytes of any string (lone surrogates included, as U+FFFD). */
export function encodeAny(text: string): string {
  return Array.from(Buffer.from(text, "utf8"), (byte) => {
    const char = String.fromCharCode(byte);
    return /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }).join("");
}

/** A query string from a schema's keys (and strangers), with encoded values and raw broken escapes. */
export function queryFrom(schema: z.ZodType | undefined): fc.Arbitrary<string> {
  const keys = keysOf(schema);
  const key = fc.oneof({ arbitrary: keys.length ? fc.constantFrom(...keys) : fc.constant("q"), weight: 4 }, { arbitrary: hostileString(), weight: 1 });
  const value = fc.oneof(
    { arbitrary: fc.oneof(fc.integer({ min: -2, max: 40 }), fc.boolean(), fc.constantFrom("mentor", "both", "2026-01-12")).map(String), weight: 3 },
    { arbitrary: hostileString(), weight: 3 },
  );
  const pair = fc.oneof(
    { arbitrary: fc.tuple(key, value).map(([k, v]) => `${encodeAny(k)}=${encodeAny(v)}`), weight: 6 },
    { arbitrary: fc.tuple(key, fc.constantFrom(...RAW_URL_ESCAPES)).map(([k, v]) => `${encodeAny(k)}=${v}`), weight: 1 },
    { arbitrary: key.map((k) => `${encodeAny(k)}[]=1&${encodeAny(k)}[a]=2`), weight: 1 },
  );
  return fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.join("&"));
}

/** JSON text no serializer writes: duplicated keys, deep nesting, broken and BOM-led JSON. */
export function rawJsonFrom(schema: z.ZodType | undefined): fc.Arbitrary<string> {
  const keys = keysOf(schema);
  const key = keys.length ? fc.constantFrom(...keys) : fc.constant("a");
  return fc.oneof(
    fc.tuple(key, fc.jsonValue({ maxDepth: 1 }), fc.jsonValue({ maxDepth: 1 })).map(([k, a, b]) => `{${JSON.stringify(k)}:${JSON.stringify(a)},${JSON.stringify(k)}:${JSON.stringify(b)}}`),
    fc.constantFrom(100, 20_000, 200_000).map((depth) => `${"[".repeat(depth)}${"]".repeat(depth)}`),
    fc.constantFrom(100, 20_000, 200_000).map((depth) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`),
    fc.constantFrom('{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"x":1}}}', "\uFEFF{}", "{", '{"a":1,}', "nul", "[1,2", '"\\ud800"', "1e999999", '{"a":"\\u0000"}', ""),
    fc.string({ unit: "binary", maxLength: 50 }),
  );
}
