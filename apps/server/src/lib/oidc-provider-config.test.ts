import { describe, expect, test } from "vitest";
import { ConfigError, loadConfig } from "../config.js";
import { parseOidcProviders, ssoRequiredFor } from "./oidc-provider-config.js";

const google = { id: "google", name: "Google", issuer: "https://accounts.google.com", clientId: "id-1", clientSecret: "shh-google-secret" };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ DATA_DIR: "/tmp/tally-oidc-config-test", SECRET_KEY: "x".repeat(40), ...env });
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe("OIDC_PROVIDERS", () => {
  test("reads several providers, domains lower-cased; none when unset", () => {
    const config = loadConfig({
      DATA_DIR: "/tmp/tally-oidc-config-test",
      SECRET_KEY: "x".repeat(40),
      OIDC_PROVIDERS: JSON.stringify([
        google,
        { id: "entra", name: "Microsoft", issuer: "https://login.microsoftonline.com/t/v2.0", clientId: "a", clientSecret: "b", domains: ["District.Example"], requireSso: true },
      ]),
    });
    expect(config.oidcProviders.map((p) => [p.id, p.domains, p.requireSso])).toEqual([
      ["google", [], false],
      ["entra", ["district.example"], true],
    ]);
    expect(loadConfig({ DATA_DIR: "/tmp/tally-oidc-config-test", SECRET_KEY: "x".repeat(40) }).oidcProviders).toEqual([]);
  });

  test("refuses bad JSON, missing fields and duplicate ids, naming the field and never the secret", () => {
    expect(problemsOf({ OIDC_PROVIDERS: "[{" })[0]).toMatch(/^OIDC_PROVIDERS: must be a JSON array/);
    const problems = problemsOf({ OIDC_PROVIDERS: JSON.stringify([{ ...google, clientId: "" }, google, google, { ...google, id: "Bad Id" }]) });
    expect(problems).toEqual([
      "OIDC_PROVIDERS[0].clientId: must not be empty",
      'OIDC_PROVIDERS[2].id: "google" is used by another provider',
      "OIDC_PROVIDERS[3].id: must be 1-40 lower-case letters, digits or dashes, e.g. google",
    ]);
    expect(problems.join("\n")).not.toContain("shh-google-secret");
  });

  test("an http issuer only with OIDC_ALLOW_HTTP=on", () => {
    const local = JSON.stringify([{ ...google, issuer: "http://127.0.0.1:9000" }]);
    expect(problemsOf({ OIDC_PROVIDERS: local })).toEqual([
      "OIDC_PROVIDERS[0].issuer: must be an https:// URL (plain http only with OIDC_ALLOW_HTTP=on, for development)",
    ]);
    expect(problemsOf({ OIDC_PROVIDERS: local, OIDC_ALLOW_HTTP: "on" })).toEqual([]);
  });

  test("requireSso needs domains, and a domain can require one provider only", () => {
    expect(parseOidcProviders(JSON.stringify([{ ...google, requireSso: true }]), false)).toEqual([
      'OIDC_PROVIDERS[0].requireSso: needs "domains", the e-mail domains whose accounts must sign in with Google',
    ]);
    const both = [
      { ...google, domains: ["school.example"], requireSso: true },
      { ...google, id: "other", domains: ["school.example"], requireSso: true },
    ];
    expect(parseOidcProviders(JSON.stringify(both), false)).toEqual([
      "OIDC_PROVIDERS: the domain school.example requires sign-in with both google and other; choose one",
    ]);
  });

  test("ssoRequiredFor finds the provider of an address's domain", () => {
    const providers = parseOidcProviders(JSON.stringify([{ ...google, domains: ["school.example"], requireSso: true }]), false);
    if (!Array.isArray(providers) || typeof providers[0] === "string") throw new Error("expected providers");
    expect(ssoRequiredFor(providers as never, "Head@School.Example")?.id).toBe("google");
    expect(ssoRequiredFor(providers as never, "head@elsewhere.example")).toBeUndefined();
  });
});
