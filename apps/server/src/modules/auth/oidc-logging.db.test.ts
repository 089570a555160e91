import { Writable } from "node:stream";
import type { MfaChallengeResponse, SignedInResponse } from "@tally/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser } from "../../../test/factories.js";
import { startTestProvider, type TestProvider } from "../../../test/oidc-test-provider.js";
import { enrolTotp, verify } from "../../../test/second-factor.js";
import { exchangeSsoCode, ssoCode, startCookies } from "../../../test/sso-flow.js";
import { useTestApp } from "../../../test/test-app.js";
import { serverLoggerOptions } from "../../lib/request-log.js";

// Single sign-on through the server's own logger options at trace level: no authorization
// code, state, nonce, PKCE verifier, flow cookie, one-time code, token or client secret may
// reach the log, on success or refusal.

const APP_URL = "https://tally.example.org";
const SECRET = "logging-client-secret-0123456789";
let log = "";
const stream = new Writable({
  write(chunk, _encoding, done) {
    log += String(chunk);
    done();
  },
});
let provider: TestProvider;

beforeAll(async () => {
  provider = await startTestProvider(
    [{ clientId: "tally", clientSecret: SECRET, redirectUris: [`${APP_URL}/api/auth/oidc/idp/callback`] }],
    {
      person: { email: "logged@school.example", emailVerified: true },
      "one-factor": { email: "enrolled@school.example", emailVerified: true, amr: ["pwd"] },
    },
  );
});
afterAll(() => provider?.close());

const t = useTestApp(() => ({
  config: {
    appUrl: APP_URL,
    oidcAllowHttp: true,
    oidcProviders: [{ id: "idp", name: "IdP", issuer: provider.issuer, clientId: "tally", clientSecret: SECRET, domains: [], requireSso: false }],
  },
  logger: serverLoggerOptions("trace", stream),
}));

describe("the server log during single sign-on", () => {
  it("holds none of the flow's secrets", async () => {
    await buildUser(t.db, { role: "school_user", email: "logged@school.example" });
    const secrets: string[] = [SECRET];

    const started = await t.app.inject({ method: "GET", url: "/api/auth/oidc/idp/start" });
    const authorizationUrl = new URL(String(started.headers.location));
    const { flow: cookie, browser } = startCookies(started.headers["set-cookie"]);
    expect(started.headers["set-cookie"]).toEqual([expect.stringMatching(/; Secure$/), expect.stringMatching(/; Secure$/)]);
    secrets.push(cookie.split("=")[1]!, browser.split("=")[1]!, authorizationUrl.searchParams.get("state")!, authorizationUrl.searchParams.get("nonce")!);
    secrets.push(authorizationUrl.searchParams.get("code_challenge")!);

    const back = await provider.signIn(authorizationUrl.href, "person");
    secrets.push(back.searchParams.get("code")!);
    const done = await t.app.inject({ method: "GET", url: back.pathname + back.search, headers: { cookie } });
    const code = new URLSearchParams(new URL(String(done.headers.location)).hash.slice(1)).get("code")!;
    secrets.push(code);
    const exchanged = await exchangeSsoCode(t, code, browser);
    const tokens = exchanged.json<SignedInResponse>();
    secrets.push(tokens.token, tokens.refreshToken);

    // A refusal by the checks: the replayed callback.
    await t.app.inject({ method: "GET", url: back.pathname + back.search, headers: { cookie } });
    expect(log).toContain("sso: sign-in refused by the checks of the provider's reply");

    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(log, "a secret of the flow is in the log").not.toContain(secret);
    }
    expect(log).toContain("/api/auth/oidc/idp/callback");
  });

  it("holds none of the second step's secrets when a one-factor single sign-on asks for the account's code", async () => {
    const user = await buildUser(t.db, { role: "school_user", email: "enrolled@school.example" });
    const enrolled = await enrolTotp(t, user, t.ctx.clock);
    const code = await ssoCode(t, provider, "one-factor", "idp");
    const exchanged = await exchangeSsoCode(t, code);
    const { challenge } = exchanged.json<MfaChallengeResponse>();
    expect(challenge).toBeTruthy();
    const recoveryCode = enrolled.recoveryCodes[0]!;
    const done = await verify(t, challenge, recoveryCode);
    expect(done.statusCode, done.body).toBe(200);
    const tokens = done.json<SignedInResponse>();

    expect(log).toContain('"url":"/api/auth/mfa/verify"');
    for (const secret of [code, challenge, enrolled.secret, recoveryCode, tokens.token, tokens.refreshToken]) {
      expect(log, "a secret of the second step is in the log").not.toContain(secret);
    }
  });
});
