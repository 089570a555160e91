import { describe, expect, it } from "vitest";
import { isCommonPassword } from "./common-passwords.js";

describe("isCommonPassword", () => {
  it.each(["password", "PASSWORD", "12345678", "Password1", "Password123!", "qwertyuiop", "Dragon#1", "monkey!!"])(
    "refuses %s",
    (password) => expect(isCommonPassword(password)).toBe(true),
  );

  it.each(["Correct-Horse-7", "Demo-Passw0rd!", "Welcome-Ferry-2026", "Qx7!pLm2#vR9", "quietriver8"])("accepts %s", (password) =>
    expect(isCommonPassword(password)).toBe(false),
  );
});
