import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normaliseEmail, normaliseName, turnLastFirst } from "./student-names.js";

describe("normaliseName", () => {
  it.each([
    ["  Dmitri   Silva ", "dmitri silva"],
    ["Silva, Dmitri", "dmitri silva"],
    ["Rodríguez,  Marcus", "marcus rodriguez"],
    ["ZOË O'Brien", "zoe o'brien"],
    ["José\tÁlvarez", "jose alvarez"],
    ["Nguyễn Văn An", "nguyen van an"],
  ])("%j → %j", (name, key) => expect(normaliseName(name)).toBe(key));

  it("gives the same key for accented and decomposed spellings and for Last, First", () => {
    fc.assert(
      fc.property(fc.constantFrom("José", "Zoë", "Ana", "Chloé"), fc.constantFrom("Núñez", "Smith", "Müller"), (first, last) => {
        const key = normaliseName(`${first} ${last}`);
        expect(normaliseName(`${last}, ${first}`)).toBe(key);
        expect(normaliseName(`${first} ${last}`.normalize("NFD"))).toBe(key);
        expect(normaliseName(` ${first.toUpperCase()}  ${last} `)).toBe(key);
      }),
    );
  });
});

describe("turnLastFirst", () => {
  it("keeps accents and case", () => {
    expect(turnLastFirst("Rodríguez, Marcus")).toBe("Marcus Rodríguez");
    expect(turnLastFirst("Cher")).toBe("Cher");
    expect(turnLastFirst("Cher,")).toBe("Cher");
  });
});

describe("normaliseEmail", () => {
  it("lower-cases and trims, empty is null", () => {
    expect(normaliseEmail(" Dmitri.Silva@Example.ORG ")).toBe("dmitri.silva@example.org");
    expect(normaliseEmail("  ")).toBeNull();
    expect(normaliseEmail(null)).toBeNull();
  });
});
