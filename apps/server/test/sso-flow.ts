import type { TestProvider } from "./oidc-test-provider.js";
import type { TestApp } from "./test-app.js";

// A single sign-on as the browser makes it, for API tests: Tally's start, the provider's login
// (the in-process oidc-provider), Tally's callback, and the one-time code it ends with.

let accountCounter = 0;

/** A provider account for `email` whose sign-in reports `amr`; its id, for signIn. */
export function providerAccount(provider: TestProvider, email: string, amr?: string[]): string {
  const id = `sso-flow-${++accountCounter}`;
  provider.accounts[id] = { email, emailVerified: true, ...(amr ? { amr } : {}) };
  return id;
}

/** Signs `accountId` in at `providerId` through Tally's start and callback: the /sso page's one-time code. */
export async function ssoCode(t: TestApp, provider: TestProvider, accountId: string, providerId: string): Promise<string> {
  const started = await t.app.inject({ method: "GET", url: `/api/auth/oidc/${providerId}/start` });
  if (started.statusCode !== 302) throw new Error(`start: ${started.statusCode} ${started.body}`);
  const cookie = String(started.headers["set-cookie"]).split(";")[0]!;
  const back = await provider.signIn(String(started.headers.location), accountId);
  const res = await t.app.inject({ method: "GET", url: back.pathname + back.search, headers: { cookie } });
  const next = new URL(String(res.headers.location));
  const code = new URLSearchParams(next.hash.slice(1)).get("code");
  if (res.statusCode !== 303 || !code) throw new Error(`callback: ${res.statusCode} ${next.hash}`);
  return code;
}

export function exchangeSsoCode(t: TestApp, code: string) {
  return t.app.inject({ method: "POST", url: "/api/auth/oidc/exchange", payload: { code } });
}
