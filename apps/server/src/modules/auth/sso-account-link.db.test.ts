import { LIMITS, MESSAGES, type SignedInResponse, ssoRequiredText } from "@tally/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser } from "../../../test/factories.js";
import { startTestProvider, type TestProvider } from "../../../test/oidc-test-provider.js";
import { exchangeSsoCode, providerAccount, ssoCode, startCookies } from "../../../test/sso-flow.js";
import { useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";

// Issue 41, points 4 and 6: a one-time code signs in only the browser that started its sign-in,
// and an account is linked to one provider account (provider and `sub`) on its first single
// sign-on, never matched by e-mail alone across providers or by an address that only Unicode
// case folding makes equal.

const APP_URL = "http://localhost:3000";
const SECRET = "test-client-secret-0123456789-abcdef";
const clock = manualClock();
let provider: TestProvider;

const CLIENTS = { "school-idp": "tally", "other-idp": "tally-other", district: "tally-district" } as const;

beforeAll(async () => {
  provider = await startTestProvider(
    Object.entries(CLIENTS).map(([id, clientId]) => ({ clientId, clientSecret: SECRET, redirectUris: [`${APP_URL}/api/auth/oidc/${id}/callback`] })),
    {},
  );
});
afterAll(() => provider?.close());

const t = useTestApp(() => ({
  clock,
  config: {
    appUrl: APP_URL,
    oidcAllowHttp: true,
    requireMfaForAdmins: true,
    oidcProviders: [
      // Two providers without domains (any verified address), and one that the district's domain must use.
      { id: "school-idp", name: "School ID", issuer: provider.issuer, clientId: CLIENTS["school-idp"], clientSecret: SECRET, domains: [], requireSso: false },
      { id: "other-idp", name: "Other ID", issuer: provider.issuer, clientId: CLIENTS["other-idp"], clientSecret: SECRET, domains: [], requireSso: false },
      { id: "district", name: "District", issuer: provider.issuer, clientId: CLIENTS.district, clientSecret: SECRET, domains: ["district.example"], requireSso: true },
    ],
  },
}));

/** Start, the provider's sign-in and the callback, as a browser makes them: where the browser lands. */
async function landing(accountId: string, providerId: string): Promise<{ next: URL; browser: string }> {
  const started = await t.app.inject({ method: "GET", url: `/api/auth/oidc/${providerId}/start` });
  expect(started.statusCode).toBe(302);
  const cookies = startCookies(started.headers["set-cookie"]);
  const back = await provider.signIn(String(started.headers.location), accountId);
  const res = await t.app.inject({ method: "GET", url: back.pathname + back.search, headers: { cookie: cookies.flow } });
  expect(res.statusCode).toBe(303);
  return { next: new URL(String(res.headers.location)), browser: cookies.browser };
}

const fragment = (url: URL) => new URLSearchParams(url.hash.slice(1));

async function expectRefused(accountId: string, providerId: string, refusal: string) {
  const { next } = await landing(accountId, providerId);
  expect(fragment(next).get("code")).toBeNull();
  expect(fragment(next).get("error")).toBe(refusal);
}

function successfulSignIns(userId: number) {
  return t.db.selectFrom("login_logs").select(["provider", "multi_factor"]).where("user_id", "=", userId).where("successful", "=", true).orderBy("id").execute();
}

function failures(userId: number | null, login?: string) {
  let query = t.db.selectFrom("login_logs").select("failure_reason").where("successful", "=", false).orderBy("id");
  query = userId === null ? query.where("login", "=", login ?? "") : query.where("user_id", "=", userId);
  return query.execute();
}

describe("the one-time code belongs to the browser that started the sign-in (login CSRF)", () => {
  it("refuses the code in a browser without the starting browser's cookie, or with another sign-in's, and takes it in the right one", async () => {
    const user = await buildUser(t.db, { role: "school_user", email: "victim.or.attacker@school.example" });
    const code = await ssoCode(t, provider, providerAccount(provider, "victim.or.attacker@school.example"), "school-idp");

    // The victim's browser: no cookie of this sign-in at all.
    const noCookie = await exchangeSsoCode(t, code, null);
    expect(noCookie.statusCode).toBe(401);
    expect(noCookie.json().code).toBe("INVALID_TOKEN");
    // A browser that started a sign-in of its own has a key, but not this one.
    const { browser: otherBrowser } = await landing(providerAccount(provider, "someone.else@school.example"), "school-idp");
    const wrongCookie = await exchangeSsoCode(t, code, otherBrowser);
    expect(wrongCookie.statusCode).toBe(401);
    expect(await t.db.selectFrom("refresh_tokens").select("id").where("user_id", "=", user.id).execute()).toEqual([]);

    // The browser that started it is signed in; the key cookie is then cleared.
    const right = await exchangeSsoCode(t, code);
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json<SignedInResponse>().user.id).toBe(user.id);
    expect(String(right.headers["set-cookie"])).toMatch(/^tally_sso_browser=; Path=\/api\/auth\/oidc; Max-Age=0/);
  });
});

describe("an account is linked to one provider account", () => {
  it("links the account to the provider and subject of its first single sign-on, and refuses another subject with the same verified address", async () => {
    const user = await buildUser(t.db, { role: "school_user", email: "Linked.Teacher@school.example" });
    const first = providerAccount(provider, "linked.teacher@school.example");
    expect((await exchangeSsoCode(t, await ssoCode(t, provider, first, "school-idp"))).statusCode).toBe(200);
    expect(await t.db.selectFrom("users").select(["oidc_provider", "oidc_subject"]).where("id", "=", user.id).executeTakeFirstOrThrow()).toEqual({
      oidc_provider: "school-idp",
      oidc_subject: first,
    });

    // Another account at the same provider that shows (and has verified) the same address.
    await expectRefused(providerAccount(provider, "linked.teacher@school.example"), "school-idp", "LINKED_ELSEWHERE");
    expect((await failures(user.id)).at(-1)).toEqual({ failure_reason: "sso_linked_elsewhere" });
    // The linked one still signs in.
    expect((await exchangeSsoCode(t, await ssoCode(t, provider, first, "school-idp"))).statusCode).toBe(200);
    expect(await successfulSignIns(user.id)).toHaveLength(2);
  });

  it("refuses another provider for a linked admin, so its amr never makes that admin's sign-in two-factor", async () => {
    const admin = await buildUser(t.db, { role: "admin", email: "linked.admin@school.example" });
    const own = providerAccount(provider, "linked.admin@school.example", ["pwd"]);
    expect((await exchangeSsoCode(t, await ssoCode(t, provider, own, "school-idp"))).statusCode).toBe(200);

    // Another configured provider vouches for the address and for two factors.
    const elsewhere = providerAccount(provider, "linked.admin@school.example", ["pwd", "otp"]);
    await expectRefused(elsewhere, "other-idp", "LINKED_ELSEWHERE");
    // Even the same subject at another provider is another provider account.
    await expectRefused(own, "other-idp", "LINKED_ELSEWHERE");
    expect(await successfulSignIns(admin.id)).toEqual([{ provider: "school-idp", multi_factor: false }]);
    expect(await t.db.selectFrom("refresh_tokens").select("provider_two_factor").where("user_id", "=", admin.id).execute()).toEqual([
      { provider_two_factor: false },
    ]);
  });

  it("honours a domain's required provider on every provider, also one without domains", async () => {
    const head = await buildUser(t.db, { role: "district_user", email: "head@district.example" });
    await expectRefused(providerAccount(provider, "head@district.example"), "school-idp", "DOMAIN_NOT_ALLOWED");
    await expectRefused(providerAccount(provider, "head@district.example"), "other-idp", "DOMAIN_NOT_ALLOWED");
    expect(await t.db.selectFrom("users").select("oidc_subject").where("id", "=", head.id).executeTakeFirstOrThrow()).toEqual({ oidc_subject: null });
    // The required provider signs it in.
    const res = await exchangeSsoCode(t, await ssoCode(t, provider, providerAccount(provider, "head@district.example"), "district"));
    expect(res.json<SignedInResponse>().user.id).toBe(head.id);
  });

  it("refuses an address that Unicode case folding alone makes an account's (KELVIN SIGN for K), and matches by ASCII case only", async () => {
    const kim = await buildUser(t.db, { role: "admin", email: "kim@school.example" });
    // "\u212Aim".toLowerCase() is "kim".
    await expectRefused(providerAccount(provider, "\u212Aim@school.example"), "school-idp", "EMAIL_NOT_ACCEPTED");
    expect(await failures(null, "\u212Aim@school.example")).toEqual([{ failure_reason: "sso_email_not_accepted" }]);
    expect(await successfulSignIns(kim.id)).toEqual([]);
    expect(await t.db.selectFrom("users").select("oidc_subject").where("id", "=", kim.id).executeTakeFirstOrThrow()).toEqual({ oidc_subject: null });

    // Plain ASCII case is no difference.
    const res = await exchangeSsoCode(t, await ssoCode(t, provider, providerAccount(provider, "KIM@School.Example"), "school-idp"));
    expect(res.statusCode).toBe(200);
  });
});

describe("a single sign-on is a fresh proof for adding a second factor (issue 41, point 5)", () => {
  it("lets an account of a single sign-on domain add a factor just after signing in, never with its password, and not after five minutes", async () => {
    const head = await buildUser(t.db, { role: "district_user", email: "deputy@district.example" });
    const signedIn = await exchangeSsoCode(t, await ssoCode(t, provider, providerAccount(provider, "deputy@district.example"), "district"));
    const headers = { authorization: `Bearer ${signedIn.json<SignedInResponse>().token}` };
    // Its Tally password signs nothing in, so it proves nothing either.
    const byPassword = await t.app.inject({ method: "POST", url: "/api/auth/mfa/reauth", headers, payload: { password: head.password } });
    expect(byPassword.statusCode).toBe(403);
    expect(byPassword.json()).toEqual({ error: ssoRequiredText("District"), code: "SSO_REQUIRED" });

    expect((await t.app.inject({ method: "POST", url: "/api/auth/mfa/totp/enroll", headers })).statusCode).toBe(200);
    clock.advance(LIMITS.reauthFreshMinutes * 60_000 + 1000);
    const late = await t.app.inject({ method: "POST", url: "/api/auth/mfa/totp/enroll", headers });
    expect(late.json()).toEqual({ error: MESSAGES.reauthRequired, code: "REAUTH_REQUIRED" });
  });
});
