import { describe, expect, it } from "vitest";
import { keyedHash, openSecret, sealSecret } from "./secret-box.js";

const KEY = "k".repeat(40);

describe("secret box", () => {
  it("opens what it sealed, with the same key and purpose only", () => {
    const sealed = sealSecret(KEY, "mfa totp secret", "JBSWY3DPEHPK3PXP");
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(openSecret(KEY, "mfa totp secret", sealed)).toBe("JBSWY3DPEHPK3PXP");
    expect(openSecret("x".repeat(40), "mfa totp secret", sealed)).toBeUndefined();
    expect(openSecret(KEY, "another purpose", sealed)).toBeUndefined();
  });

  it("seals the same text differently each time, and refuses a box that was changed", () => {
    const a = sealSecret(KEY, "p", "same");
    expect(sealSecret(KEY, "p", "same")).not.toBe(a);
    const [v, iv, tag, data = ""] = a.split(".");
    // The first character: all six of its bits are data (the last one's may be padding).
    const flipped = `${data.startsWith("A") ? "B" : "A"}${data.slice(1)}`;
    expect(openSecret(KEY, "p", [v, iv, tag, flipped].join("."))).toBeUndefined();
    expect(openSecret(KEY, "p", "not a box")).toBeUndefined();
  });

  it("hashes with the key: another key gives another hash", () => {
    expect(keyedHash(KEY, "p", "abc")).toBe(keyedHash(KEY, "p", "abc"));
    expect(keyedHash(KEY, "p", "abc")).not.toBe(keyedHash("x".repeat(40), "p", "abc"));
  });
});
