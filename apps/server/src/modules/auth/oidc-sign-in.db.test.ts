import { type SignedInResponse, sessionUserSchema, ssoRefusalText } from "@tally/contract";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildUser } from "../../../test/factories.js";
import { startTestProvider, type TestProvider } from "../../../test/oidc-test-provider.js";
import { exchangeSsoCode, startCookies } from "../../../test/sso-flow.js";
import { useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";

// Single sign-on against a real OpenID provider running in this process (oidc-provider).

const APP_URL = "http://localhost:3000";
const SECRET = "test-client-secret-0123456789-abcdef";
const clock = manualClock();
let provider: TestProvider;

beforeAll(async () => {
  provider = await startTestProvider(
    [
      { clientId: "tally", clientSecret: SECRET, redirectUris: [`${APP_URL}/api/auth/oidc/school-idp/callback`] },
      { clientId: "tally-entra", clientSecret: SECRET, redirectUris: [`${APP_URL}/api/auth/oidc/entra/callback`] },
    ],
    {},
  );
});
afterAll(() => provider?.close());

const t = useTestApp(() => ({
  clock,
  config: {
    appUrl: APP_URL,
    oidcAllowHttp: true,
    oidcProviders: [
      { id: "school-idp", name: "School ID", issuer: provider.issuer, clientId: "tally", clientSecret: SECRET, domains: [], requireSso: false },
      // Like Microsoft Entra: no email_verified, so trusted for its own domain only.
      {
        id: "entra",
        name: "Microsoft",
        issuer: provider.issuer,
        clientId: "tally-entra",
        clientSecret: SECRET,
        domains: ["district.example"],
        requireSso: false,
      },
      // Nothing listens there: discovery fails.
      { id: "down", name: "Down IdP", issuer: "http://127.0.0.1:9", clientId: "tally", clientSecret: SECRET, domains: [], requireSso: false },
    ],
  },
}));

let accountCounter = 0;
/** A provider account (named after its e-mail) for a new address. */
function providerAccount(email: string, claims: { emailVerified?: boolean; amr?: string[] } = { emailVerified: true }): string {
  const id = `acct-${++accountCounter}`;
  provider.accounts[id] = { email, ...claims };
  return id;
}

interface Started {
  authorizationUrl: string;
  /** The flow's cookie, for the callback. */
  cookie: string;
  /** The browser's key, for the exchange. */
  browser: string;
}

async function start(providerId = "school-idp"): Promise<Started> {
  const res = await t.app.inject({ method: "GET", url: `/api/auth/oidc/${providerId}/start` });
  expect(res.statusCode).toBe(302);
  const setCookie = res.headers["set-cookie"] as string[];
  expect(setCookie).toHaveLength(2);
  expect(setCookie[0]).toMatch(/^tally_oidc=.*HttpOnly; SameSite=Lax/);
  expect(setCookie[1]).toMatch(/^tally_sso_browser=.*; Path=\/api\/auth\/oidc; Max-Age=600; HttpOnly; SameSite=Strict/);
  const { flow, browser } = startCookies(setCookie);
  return { authorizationUrl: String(res.headers.location), cookie: flow, browser };
}

/** The browser key each one-time code was made for. */
const browserOfCode = new Map<string, string>();

const fragment = (url: URL) => new URLSearchParams(url.hash.slice(1));

/** The provider's redirect back, taken by Tally's callback: where Tally sends the browser next. */
async function callback(url: URL, cookie: string | undefined, browser?: string): Promise<URL> {
  const res = await t.app.inject({ method: "GET", url: url.pathname + url.search, headers: cookie ? { cookie } : {} });
  expect(res.statusCode).toBe(303);
  const next = new URL(String(res.headers.location));
  const code = fragment(next).get("code");
  if (code && browser) browserOfCode.set(code, browser);
  return next;
}

async function signInThrough(accountId: string, providerId = "school-idp"): Promise<URL> {
  const { authorizationUrl, cookie, browser } = await start(providerId);
  return callback(await provider.signIn(authorizationUrl, accountId), cookie, browser);
}

/** The /sso page's exchange from the browser that started the sign-in. */
function exchange(code: string) {
  return exchangeSsoCode(t, code, browserOfCode.get(code) ?? null);
}

async function lastLog(userId: number | null, login?: string) {
  let query = t.db.selectFrom("login_logs").selectAll().orderBy("id", "desc");
  query = userId === null ? query.where("login", "=", login ?? "") : query.where("user_id", "=", userId);
  return query.executeTakeFirstOrThrow();
}

/** A refusal names itself and the provider's id, and carries nothing else (no address for the page to echo). */
function expectRefusal(next: URL, refusal: string) {
  expect(`${next.origin}${next.pathname}`).toBe(`${APP_URL}/sso`);
  const f = fragment(next);
  expect(f.get("error")).toBe(refusal);
  expect(f.get("code")).toBeNull();
  expect([...f.keys()].toSorted()).toEqual(["error", "provider"]);
}

describe("GET /api/auth/providers", () => {
  it("lists each provider's id and name, and nothing secret", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/auth/providers" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: "school-idp", name: "School ID" },
      { id: "entra", name: "Microsoft" },
      { id: "down", name: "Down IdP" },
    ]);
  });
});

describe("single sign-on", () => {
  it("signs an active account in by its verified e-mail, with the usual token pair, through a one-time code", async () => {
    const user = await buildUser(t.db, { role: "school_user", email: "Teacher.One@school.example" });
    const next = await signInThrough(providerAccount("teacher.one@school.example"));
    expect(`${next.origin}${next.pathname}`).toBe(`${APP_URL}/sso`);
    expect(next.search).toBe("");
    const code = fragment(next).get("code")!;
    expect(code).toMatch(/^[\w-]{40,}$/);

    const res = await exchange(code);
    expect(res.statusCode).toBe(200);
    const body = res.json<SignedInResponse>();
    expect(sessionUserSchema.parse(body.user).id).toBe(user.id);
    const profile = await t.app.inject({ method: "GET", url: "/api/auth/profile", headers: { authorization: `Bearer ${body.token}` } });
    expect(profile.statusCode).toBe(200);
    const refreshed = await t.app.inject({ method: "POST", url: "/api/auth/refresh", payload: { refreshToken: body.refreshToken } });
    expect(refreshed.statusCode).toBe(200);

    const log = await lastLog(user.id);
    expect(log).toMatchObject({ successful: true, login_method: "oidc", provider: "school-idp", multi_factor: false });

    // The code is single use.
    const again = await exchange(code);
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe("INVALID_TOKEN");
  });

  it("ends like any sign-in: signing out ends its access token, and its refresh token is then refused", async () => {
    await buildUser(t.db, { role: "school_user", email: "leaver@school.example" });
    const next = await signInThrough(providerAccount("leaver@school.example"));
    const body = (await exchange(fragment(next).get("code")!)).json<SignedInResponse>();
    const headers = { authorization: `Bearer ${body.token}` };
    expect((await t.app.inject({ method: "GET", url: "/api/auth/profile", headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "POST", url: "/api/auth/logout", payload: { refreshToken: body.refreshToken } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/auth/profile", headers })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "POST", url: "/api/auth/refresh", payload: { refreshToken: body.refreshToken } })).statusCode).toBe(401);
  });

  it("records two factors when the provider's amr shows them, and not otherwise", async () => {
    const user = await buildUser(t.db, { role: "admin", email: "admin.mfa@school.example" });
    const account = providerAccount("admin.mfa@school.example", { emailVerified: true, amr: ["pwd", "otp"] });
    const next = await signInThrough(account);
    expect((await exchange(fragment(next).get("code")!)).statusCode).toBe(200);
    expect(await lastLog(user.id)).toMatchObject({ successful: true, multi_factor: true, provider: "school-idp" });

    provider.accounts[account]!.amr = ["pwd"];
    const pwdOnly = await signInThrough(account);
    expect((await exchange(fragment(pwdOnly).get("code")!)).statusCode).toBe(200);
    expect(await lastLog(user.id)).toMatchObject({ successful: true, multi_factor: false });
  });

  it("refuses a callback whose state is not the one its flow started with", async () => {
    const user = await buildUser(t.db, { role: "school_user", email: "state@school.example" });
    const { authorizationUrl, cookie } = await start();
    const back = await provider.signIn(authorizationUrl, providerAccount("state@school.example"));
    back.searchParams.set("state", "forged-state");
    expectRefusal(await callback(back, cookie), "SIGN_IN_FAILED");
    // Without the flow's cookie (another browser's callback) it is refused too.
    const other = await start();
    const back2 = await provider.signIn(other.authorizationUrl, providerAccount("state@school.example"));
    expectRefusal(await callback(back2, undefined), "SIGN_IN_FAILED");
    const count = await t.db.selectFrom("login_logs").where("user_id", "=", user.id).where("successful", "=", true).select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it("refuses an ID token carrying another nonce", async () => {
    const { authorizationUrl, cookie } = await start();
    const tampered = new URL(authorizationUrl);
    tampered.searchParams.set("nonce", "a-nonce-the-flow-never-made");
    await buildUser(t.db, { role: "school_user", email: "nonce@school.example" });
    const back = await provider.signIn(tampered.href, providerAccount("nonce@school.example"));
    expectRefusal(await callback(back, cookie), "SIGN_IN_FAILED");
  });

  it("refuses a replayed authorization code, an expired one, and an expired flow", async () => {
    await buildUser(t.db, { role: "school_user", email: "replay@school.example" });
    const account = providerAccount("replay@school.example");
    const { authorizationUrl, cookie } = await start();
    const back = await provider.signIn(authorizationUrl, account);
    expect(fragment(await callback(back, cookie)).get("code")).toBeTruthy();
    expectRefusal(await callback(back, cookie), "SIGN_IN_FAILED");

    provider.codeTtlSeconds = 1;
    try {
      const late = await start();
      const lateBack = await provider.signIn(late.authorizationUrl, account);
      await new Promise((resolve) => setTimeout(resolve, 2100));
      expectRefusal(await callback(lateBack, late.cookie), "SIGN_IN_FAILED");
    } finally {
      provider.codeTtlSeconds = 60;
    }

    // The flow's cookie lasts ten minutes.
    const slow = await start();
    const slowBack = await provider.signIn(slow.authorizationUrl, account);
    clock.advance(11 * 60_000);
    expectRefusal(await callback(slowBack, slow.cookie), "SIGN_IN_FAILED");
  });

  it("refuses a one-time code after its minute", async () => {
    await buildUser(t.db, { role: "school_user", email: "slow@school.example" });
    const next = await signInThrough(providerAccount("slow@school.example"));
    clock.advance(61_000);
    expect((await exchange(fragment(next).get("code")!)).statusCode).toBe(401);
  });

  it("refuses an unverified e-mail, naming nothing it should not", async () => {
    const user = await buildUser(t.db, { role: "school_user", email: "unverified@school.example" });
    expectRefusal(await signInThrough(providerAccount("unverified@school.example", { emailVerified: false })), "EMAIL_NOT_VERIFIED");
    // Without email_verified at all, a provider with no domains is not trusted either.
    expectRefusal(await signInThrough(providerAccount("unverified@school.example", {})), "EMAIL_NOT_VERIFIED");
    expect(await lastLog(null, "unverified@school.example")).toMatchObject({ successful: false, failure_reason: "email_not_verified" });
    expect(await t.db.selectFrom("login_logs").where("user_id", "=", user.id).where("successful", "=", true).selectAll().execute()).toEqual([]);
  });

  it("trusts a provider that never sends email_verified only for its configured domains", async () => {
    const user = await buildUser(t.db, { role: "district_user", email: "head@district.example" });
    const next = await signInThrough(providerAccount("head@district.example", {}), "entra");
    expect((await exchange(fragment(next).get("code")!)).json<SignedInResponse>().user.id).toBe(user.id);
    await buildUser(t.db, { role: "school_user", email: "someone@elsewhere.example" });
    expectRefusal(
      await signInThrough(providerAccount("someone@elsewhere.example", { emailVerified: true }), "entra"),
      "DOMAIN_NOT_ALLOWED",
    );
  });

  it("refuses an address with no Tally account, creating nothing, and a deactivated account", async () => {
    const before = await t.db.selectFrom("users").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
    const next = await signInThrough(providerAccount("stranger@school.example"));
    expectRefusal(next, "NO_ACCOUNT");
    expect(ssoRefusalText("NO_ACCOUNT", "School ID")).toBe("There is no Tally account for the e-mail address School ID gave — ask your programme administrator.");
    const after = await t.db.selectFrom("users").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect(await lastLog(null, "stranger@school.example")).toMatchObject({ successful: false, failure_reason: "unknown_user", provider: "school-idp" });

    const gone = await buildUser(t.db, { role: "school_user", email: "gone@school.example", isActive: false });
    expectRefusal(await signInThrough(providerAccount("gone@school.example")), "ACCOUNT_INACTIVE");
    expect(await lastLog(gone.id)).toMatchObject({ successful: false, failure_reason: "inactive", login_method: "oidc" });
  });

  it("refuses an ID token from another issuer, and one for another audience", async () => {
    await buildUser(t.db, { role: "school_user", email: "iss@school.example" });
    const account = providerAccount("iss@school.example");
    provider.impersonate(provider.issuer.replace("127.0.0.1", "localhost"));
    try {
      expectRefusal(await signInThrough(account), "SIGN_IN_FAILED");
    } finally {
      provider.impersonate(provider.issuer);
    }
    provider.tamperIdTokens((claims) => {
      claims.aud = "another-client";
    });
    try {
      expectRefusal(await signInThrough(account), "SIGN_IN_FAILED");
    } finally {
      provider.tamperIdTokens(undefined);
    }
    // The same tampering path with the audience left alone still signs in: the refusal was the audience's.
    provider.tamperIdTokens(() => {});
    try {
      expect(fragment(await signInThrough(account)).get("code")).toBeTruthy();
    } finally {
      provider.tamperIdTokens(undefined);
    }
  });

  it("follows the provider's signing key when it rotates", async () => {
    await buildUser(t.db, { role: "school_user", email: "rotate@school.example" });
    const account = providerAccount("rotate@school.example");
    expect(fragment(await signInThrough(account)).get("code")).toBeTruthy();
    await provider.rotateKeys();
    // openid-client fetches the key set again for an unknown key once its copy is a minute old.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 });
    try {
      const next = await signInThrough(account);
      expect(fragment(next).get("code")).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it("takes the extra parameters Google, Entra and Keycloak add to the callback", async () => {
    await buildUser(t.db, { role: "school_user", email: "extras@school.example" });
    const { authorizationUrl, cookie } = await start();
    const back = await provider.signIn(authorizationUrl, providerAccount("extras@school.example"));
    for (const [name, value] of Object.entries({ scope: "openid email", authuser: "0", hd: "school.example", prompt: "none", session_state: "s1" })) {
      back.searchParams.set(name, value);
    }
    expect(fragment(await callback(back, cookie)).get("code")).toBeTruthy();
  });

  it("refuses a sign-in the person cancelled at the provider", async () => {
    const { cookie } = await start();
    const back = new URL(`${APP_URL}/api/auth/oidc/school-idp/callback`);
    back.searchParams.set("error", "access_denied");
    back.searchParams.set("error_description", "End-User aborted interaction");
    expectRefusal(await callback(back, cookie), "SIGN_IN_FAILED");
  });

  it("sends the browser to a refusal, not an error, when the provider cannot be reached", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/auth/oidc/down/start" });
    expect(res.statusCode).toBe(302);
    expect(res.headers["set-cookie"]).toBeUndefined();
    expectRefusal(new URL(String(res.headers.location)), "PROVIDER_UNAVAILABLE");
  });

  it("answers an unknown provider with 404", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/auth/oidc/nope/start" })).statusCode).toBe(404);
  });
});
