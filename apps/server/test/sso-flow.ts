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

/** The cookies a start set, each as `name=value`: the flow's (for the callback) and the browser's key (for the exchange). */
export function startCookies(setCookie: string | string[] | number | undefined): { flow: string; browser: string } {
  const pairs = (Array.isArray(setCookie) ? setCookie : [String(setCookie)]).map((c) => c.split(";")[0]!);
  const flow = pairs.find((p) => p.startsWith("tally_oidc="));
  const browser = pairs.find((p) => p.startsWith("tally_sso_browser="));
  if (!flow || !browser) throw new Error(`start set no flow or browser cookie: ${String(setCookie)}`);
  return { flow, browser };
}

/** The browser cookie each one-time code was made for: the exchange sends it, as the browser that started the sign-in does. */
const browserOfCode = new Map<string, string>();

/** Signs `accountId` in at `providerId` through Tally's start and callback: the /sso page's one-time code. */
export async function ssoCode(t: TestApp, provider: TestProvider, accountId: string, providerId: string): Promise<string> {
  const started = await t.app.inject({ method: "GET", url: `/api/auth/oidc/${providerId}/start` });
  if (started.statusCode !== 302) throw new Error(`start: ${started.statusCode} ${started.body}`);
  const cookies = startCookies(started.headers["set-cookie"]);
  const back = await provider.signIn(String(started.headers.location), accountId);
  const res = await t.app.inject({ method: "GET", url: back.pathname + back.search, headers: { cookie: cookies.flow } });
  const next = new URL(String(res.headers.location));
  const code = new URLSearchParams(next.hash.slice(1)).get("code");
  if (res.statusCode !== 303 || !code) throw new Error(`callback: ${res.statusCode} ${next.hash}`);
  browserOfCode.set(code, cookies.browser);
  return code;
}

/** The /sso page's exchange, from the browser that started the sign-in (or, with `browser`, from the one given: null for none). */
export function exchangeSsoCode(t: TestApp, code: string, browser?: string | null) {
  const cookie = browser === undefined ? browserOfCode.get(code) : browser;
  return t.app.inject({ method: "POST", url: "/api/auth/oidc/exchange", payload: { code }, headers: cookie ? { cookie } : {} });
}
