import { describe, expect, test } from "vitest";
import type { OidcProviderConfig } from "../../lib/oidc-provider-config.js";
import { amrShowsTwoFactors, verifiedEmail } from "./oidc-claims.js";

const provider = (domains: string[]): OidcProviderConfig => ({
  id: "p",
  name: "P",
  issuer: "https://idp.example",
  clientId: "c",
  clientSecret: "s",
  domains,
  requireSso: false,
});

describe("amrShowsTwoFactors", () => {
  test.each([
    [["mfa"], true],
    [["pwd", "mfa"], true],
    [["pwd", "otp"], true],
    [["hwk", "fpt"], true],
    [["pwd", "hwk"], true],
    [["pwd", "swk"], true],
    [["fido", "pin"], true],
    [["ngcmfa"], true],
    [["pwd", "fido"], true],
    [["fido"], false],
    [["pwd", "wiaormfa"], false],
    [["pwd", "rba", "mca"], false],
    [["pwd"], false],
    [["otp", "sms"], false],
    [[], false],
    [undefined, false],
    ["mfa", false],
  ])("%j → %s", (amr, expected) => {
    expect(amrShowsTwoFactors(amr)).toBe(expected);
  });
});

describe("verifiedEmail", () => {
  test("needs email_verified, lower-cases the address", () => {
    expect(verifiedEmail(provider([]), { email: "A@School.Example", email_verified: true }, [])).toEqual({ email: "a@school.example" });
    expect(verifiedEmail(provider([]), { email: "a@school.example", email_verified: false }, [])).toMatchObject({ refusal: "EMAIL_NOT_VERIFIED" });
    expect(verifiedEmail(provider([]), { email: "a@school.example" }, [])).toMatchObject({ refusal: "EMAIL_NOT_VERIFIED" });
    expect(verifiedEmail(provider([]), {}, [])).toEqual({ refusal: "EMAIL_NOT_VERIFIED", email: null });
  });

  test("without email_verified, only the provider's domains; outside them, refused even when verified", () => {
    expect(verifiedEmail(provider(["district.example"]), { email: "a@district.example" }, [])).toEqual({ email: "a@district.example" });
    expect(verifiedEmail(provider(["district.example"]), { email: "a@district.example", email_verified: false }, [])).toMatchObject({
      refusal: "EMAIL_NOT_VERIFIED",
    });
    expect(verifiedEmail(provider(["district.example"]), { email: "a@other.example", email_verified: true }, [])).toMatchObject({
      refusal: "DOMAIN_NOT_ALLOWED",
    });
  });

  test("refuses an address NFKC would change instead of folding it onto an ASCII one, and lower-cases A-Z only", () => {
    // U+212A KELVIN SIGN: "\u212Aim".toLowerCase() is "kim".
    expect(verifiedEmail(provider([]), { email: "\u212Aim@school.example", email_verified: true }, [])).toMatchObject({ refusal: "EMAIL_NOT_ACCEPTED" });
    expect(verifiedEmail(provider([]), { email: "ｋim@school.example", email_verified: true }, [])).toMatchObject({ refusal: "EMAIL_NOT_ACCEPTED" });
    expect(verifiedEmail(provider([]), { email: "KIM@School.Example", email_verified: true }, [])).toEqual({ email: "kim@school.example" });
    expect(verifiedEmail(provider([]), { email: "ÉMILE@school.example", email_verified: true }, [])).toEqual({ email: "Émile@school.example" });
  });

  test("refuses a domain whose accounts must use another provider, even from a provider without domains", () => {
    const district = { ...provider(["district.example"]), id: "district", requireSso: true };
    const open = provider([]);
    expect(verifiedEmail(open, { email: "head@district.example", email_verified: true }, [district, open])).toMatchObject({ refusal: "DOMAIN_NOT_ALLOWED" });
    expect(verifiedEmail(district, { email: "head@district.example", email_verified: true }, [district, open])).toEqual({ email: "head@district.example" });
    expect(verifiedEmail(open, { email: "t@school.example", email_verified: true }, [district, open])).toEqual({ email: "t@school.example" });
  });
});
