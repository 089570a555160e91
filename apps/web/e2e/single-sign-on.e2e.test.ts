import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Secret, TOTP } from "otpauth";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { freePort } from "../../../tools/free-port.mjs";
import { startTestProvider, type TestProvider } from "../../server/test/oidc-test-provider";
import { expectTitle, newContext, visible, waitForPath } from "./browser";
import { ADMIN, DISTRICT, SCHOOL, SUPER_ADMIN } from "./demo-accounts";
import { DEMO_PASSWORD, spawnDemoServer, waitUntilServing } from "./global-setup";
import { useBrowser } from "./journey-setup";

// Single sign-on through a real OpenID provider's own login page (oidc-provider's development
// interactions), started here; a server of its own is configured with OIDC_PROVIDERS for it,
// and with REQUIRE_MFA_FOR_ADMINS on: a sign-in counts as two factors only when the provider's
// `amr` says so, so the accounts here meet the code step or the walk to enrolment.

const root = new URL("../../..", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "tally-e2e-sso-"));
const SECRET = "journey-client-secret-0123456789";
const browser = useBrowser();
let provider: TestProvider;
let server: ChildProcess | undefined;
let baseUrl = "";
let context: BrowserContext;
let page: Page;
let output = "";
/** The district account's authenticator key, set up through the API before the journeys. */
let districtSecret = "";

/** What the authenticator app shows `offsetSteps` steps from now. */
const totpCode = (offsetSteps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(districtSecret), period: 30, timestamp: Date.now() + offsetSteps * 30_000 });

async function api<T>(path: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body ?? {}),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  provider = await startTestProvider(
    [{ clientId: "tally", clientSecret: SECRET, redirectUris: [`${baseUrl}/api/auth/oidc/school-id/callback`] }],
    {
      "school-person": { email: SCHOOL.email, emailVerified: true },
      "stranger": { email: "stranger@school.example", emailVerified: true },
      // One factor at the provider: an account with two-step sign-in is asked for its code.
      "district-person": { email: DISTRICT.email, emailVerified: true, amr: ["pwd"] },
      // One factor, an admin without two-step sign-in: walked to enrolment.
      "admin-person": { email: ADMIN.email, emailVerified: true, amr: ["pwd"] },
      // Two factors at the provider: the admin works without Tally's own.
      "super-person": { email: SUPER_ADMIN.email, emailVerified: true, amr: ["pwd", "mfa"] },
    },
  );
  const providers = [{ id: "school-id", name: "School ID", issuer: provider.issuer, clientId: "tally", clientSecret: SECRET }];
  server = spawnDemoServer(root, port, join(dir, "data"), {
    APP_URL: baseUrl,
    DEMO_PASSWORD,
    SMTP_URL: "",
    LOG_LEVEL: "warn",
    OIDC_PROVIDERS: JSON.stringify(providers),
    OIDC_ALLOW_HTTP: "on",
    REQUIRE_MFA_FOR_ADMINS: "on",
  });
  server.stdout?.on("data", (d) => (output += d));
  server.stderr?.on("data", (d) => (output += d));
  await waitUntilServing(baseUrl, server, () => output);
  // The district account turns two-step sign-in on, as from its profile.
  const { token } = await api<{ token: string }>("/auth/login", { login: DISTRICT.username, password: DEMO_PASSWORD });
  await api("/auth/mfa/reauth", { password: DEMO_PASSWORD }, token);
  districtSecret = (await api<{ secret: string }>("/auth/mfa/totp/enroll", {}, token)).secret;
  await api("/auth/mfa/totp/confirm", { code: totpCode() }, token);
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  await provider?.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  context = await newContext(browser(), { baseUrl });
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

/** From Tally's sign-in page to the provider's login page, signed in there as `accountId`. */
async function signInAtProvider(accountId: string): Promise<void> {
  await page.goto("/login");
  // Each journey starts signed out: a browser signed in already is asked before /sso switches it (sso-page.test.tsx).
  await page.evaluate(() => localStorage.clear());
  await page.goto("/login");
  await (await visible(page.getByRole("link", { name: "Sign in with School ID" }))).click();
  await page.waitForURL((url) => url.origin === provider.issuer && url.pathname.startsWith("/interaction/"));
  await page.locator('input[name="login"]').fill(accountId);
  await page.locator('input[name="password"]').fill("any password");
  await page.locator('button[type="submit"]').click();
}

describe("single sign-on", () => {
  test("signs a school user in through the provider's login page and lands on their school", async () => {
    await signInAtProvider("school-person");
    await waitForPath(page, SCHOOL.home);
    await expectTitle(page, SCHOOL.title);
    // No code or token stays in the address bar or its history.
    expect(page.url()).toBe(`${baseUrl}${SCHOOL.home}`);
    const stored = await page.evaluate(() => localStorage.getItem("tally.token"));
    expect(stored).toBeTruthy();
  });

  test("refuses an address with no Tally account, saying so", async () => {
    await signInAtProvider("stranger");
    await waitForPath(page, "/sso");
    const refusal = await visible(page.getByTestId("sso-refusal"));
    expect((await refusal.textContent())?.trim()).toBe(
      "There is no Tally account for the e-mail address School ID gave — ask your programme administrator.",
    );
    expect(new URL(page.url()).hash).toBe("");
  });

  test("asks an account with two-step sign-in for its code when the provider's sign-in was one factor", async () => {
    await signInAtProvider("district-person");
    await waitForPath(page, "/sso");
    const field = await visible(page.getByLabel("Enter the 6-digit code"));
    // No session before the code.
    expect(await page.evaluate(() => localStorage.getItem("tally.token"))).toBeNull();
    expect(new URL(page.url()).hash).toBe("");
    await page.screenshot({ path: "/tmp/sso-code-step.png" });
    // The next step's code: the one now was used to turn two-step sign-in on.
    const code = totpCode(1);
    await field.fill(code);
    await page.getByRole("button", { name: "Verify" }).click();
    await waitForPath(page, DISTRICT.home);
    await expectTitle(page, DISTRICT.title);
    expect(await page.evaluate(() => localStorage.getItem("tally.token"))).toBeTruthy();
    expect(output).not.toContain(code);
    expect(output).not.toContain(districtSecret);
  });

  test("walks an admin without two-step sign-in to enrolment when the provider's sign-in was one factor", async () => {
    await signInAtProvider("admin-person");
    await waitForPath(page, "/account/two-step");
    await expectTitle(page, "Two-step sign-in");
    await visible(page.getByTestId("mfa-required-notice"));
    await visible(page.getByRole("button", { name: "Set up an authenticator app" }));
    await page.screenshot({ path: "/tmp/sso-walked-to-enrolment.png" });
  });

  test("lets an admin whose provider used two factors work without Tally's own", async () => {
    await signInAtProvider("super-person");
    await waitForPath(page, SUPER_ADMIN.home);
    await expectTitle(page, SUPER_ADMIN.title);
    // Admin data loads (GET /api/users): nothing answered MFA_ENROLMENT_REQUIRED.
    await page.goto("/users");
    await visible(page.getByTestId("active-users-count"));
    expect(new URL(page.url()).pathname).toBe("/users");
  });
});
