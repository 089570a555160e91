import { describe, expect, it } from "vitest";
import { hasNameControlCharacter } from "./student-name.js";
import { updateStudentRequestSchema } from "./students.js";

describe("hasNameControlCharacter", () => {
  it.each([
    ["a line feed", "Ann\nLee"],
    ["a carriage return", "Ann\rLee"],
    ["a tab", "Ann\tLee"],
    ["NUL", "Ann\u0000"],
    ["the unit separator", "Ann\u001f"],
    ["DEL", "Ann\u007fLee"],
    ["NEL (C1)", "Ann\u0085Lee"],
    ["the last C1 control", "Ann\u009f"],
    ["the line separator", "Ann\u2028Lee"],
    ["the paragraph separator", "Ann\u2029Lee"],
    ["a right-to-left override", "Ann\u202eeeL"],
    ["a first strong isolate", "\u2068Ann"],
  ])("finds %s", (_what, name) => {
    expect(hasNameControlCharacter(name)).toBe(true);
  });

  it.each([
    ["a plain name", "Dmitri Silva"],
    ["accents", "José Núñez-Ål"],
    ["an apostrophe and a no-break space", "D’Angelo\u00a0O'Neil"],
    ["the first character after C1", "\u00a0"],
    ["a right-to-left mark", "\u0645\u062d\u0645\u062f\u200f"],
    ["a zero-width non-joiner", "\u0645\u06cc\u200c\u0631\u0648"],
    ["an empty text", ""],
  ])("allows %s", (_what, name) => {
    expect(hasNameControlCharacter(name)).toBe(false);
  });
});

describe("the student edit's names", () => {
  it("refuses a control character inside a name, naming the field", () => {
    const result = updateStudentRequestSchema.safeParse({ last_name: "Lee\r\nSet-Cookie: x" });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ["last_name"], message: "Last name must not contain line breaks or other control characters" }),
    ]);
  });

  it("still trims the spaces and line breaks around a name", () => {
    expect(updateStudentRequestSchema.parse({ first_name: " Ann\n" })).toEqual({ first_name: "Ann" });
  });
});
