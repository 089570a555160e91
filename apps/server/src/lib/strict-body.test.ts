import { describe, expect, it } from "vitest";
import { z } from "zod";
import { strictBodySchema } from "./strict-body.js";

const unknownKeys = (schema: z.ZodType, value: unknown) => {
  const result = strictBodySchema(schema).safeParse(value);
  return result.success ? [] : result.error.issues.filter((i) => i.code === "unrecognized_keys").map((i) => [...i.path, ...i.keys].join("."));
};

describe("strictBodySchema", () => {
  it("refuses unknown fields at every depth of plain objects, arrays, optional and defaulted parts", () => {
    const schema = z.object({
      name: z.string(),
      rows: z.array(z.object({ id: z.number() })).optional(),
      nested: z.object({ on: z.boolean() }).default({ on: false }),
    });
    expect(unknownKeys(schema, { name: "a", extra: 1 })).toEqual(["extra"]);
    expect(unknownKeys(schema, { name: "a", rows: [{ id: 1, more: 2 }] })).toEqual(["rows.0.more"]);
    expect(unknownKeys(schema, { name: "a", nested: { on: true, x: 1 } })).toEqual(["nested.x"]);
    // What it accepts, it parses as before: the default still applies (a fresh copy each time).
    const first = strictBodySchema(schema).parse({ name: "a" }) as { nested: { on: boolean } };
    expect(first).toEqual({ name: "a", nested: { on: false } });
  });

  it("keeps refinements, transforms and preprocessing, and checks each option of a union", () => {
    const refined = z.object({ a: z.number(), b: z.number() }).refine((v) => v.a < v.b, { message: "a must be below b", path: ["a"] });
    expect(strictBodySchema(refined).safeParse({ a: 2, b: 1 }).error?.issues[0]?.message).toBe("a must be below b");
    expect(unknownKeys(refined, { a: 1, b: 2, c: 3 })).toEqual(["c"]);

    const transformed = z.object({ q: z.string() }).transform((v) => v.q.toUpperCase());
    expect(strictBodySchema(transformed).parse({ q: "x" })).toBe("X");
    expect(unknownKeys(transformed, { q: "x", r: 1 })).toEqual(["r"]);

    const preprocessed = z.preprocess((v) => v, z.object({ q: z.string() }));
    expect(unknownKeys(preprocessed, { q: "x", r: 1 })).toEqual(["r"]);

    const union = z.discriminatedUnion("kind", [z.object({ kind: z.literal("a"), a: z.number() }), z.object({ kind: z.literal("b"), b: z.number() })]);
    expect(strictBodySchema(union).parse({ kind: "b", b: 1 })).toEqual({ kind: "b", b: 1 });
    expect(unknownKeys(union, { kind: "a", a: 1, b: 1 })).toEqual(["b"]);
  });

  it("leaves an object declared loose (and what is inside it) as the contract wrote it", () => {
    const schema = z.object({ response: z.looseObject({ id: z.string(), inner: z.object({ x: z.number() }) }) });
    const value = { response: { id: "a", authenticatorAttachment: "platform", inner: { x: 1, y: 2 } } };
    expect(strictBodySchema(schema).safeParse(value).success).toBe(true);
    expect(unknownKeys(schema, { ...value, extra: 1 })).toEqual(["extra"]);
  });

  it("does not change the contract's own schema", () => {
    const schema = z.object({ a: z.number() });
    strictBodySchema(schema);
    expect(schema.safeParse({ a: 1, b: 2 }).success).toBe(true);
  });
});
