import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { freePort } from "../../../tools/free-port.mjs";
import { startTestProvider, type TestProvider } from "../../server/test/oidc-test-provider";
import { expectTitle, newContext, visible, waitForPath } from "./browser";
import { SCHOOL } from "./demo-accounts";
import { DEMO_PASSWORD, spawnDemoServer, waitUntilServing } from "./global-setup";
import { useBrowser } from "./journey-setup";

// Single sign-on through a real OpenID provider's own login page (oidc-provider's development
// interactions), started here; a server of its own is configured with OIDC_PROVIDERS for it.

const root = new URL("../../..", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "tally-e2e-sso-"));
const SECRET = "journey-client-secret-0123456789";
const browser = useBrowser();
let provider: TestProvider;
let server: ChildProcess | undefined;
let baseUrl = "";
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  provider = await startTestProvider(
    [{ clientId: "tally", clientSecret: SECRET, redirectUris: [`${baseUrl}/api/auth/oidc/school-id/callback`] }],
    {
      "school-person": { email: SCHOOL.email, emailVerified: true },
      "stranger": { email: "stranger@school.example", emailVerified: true },
    },
  );
  const providers = [{ id: "school-id", name: "School ID", issuer: provider.issuer, clientId: "tally", clientSecret: SECRET }];
  let output = "";
  server = spawnDemoServer(root, port, join(dir, "data"), {
    APP_URL: baseUrl,
    DEMO_PASSWORD,
    SMTP_URL: "",
    LOG_LEVEL: "warn",
    OIDC_PROVIDERS: JSON.stringify(providers),
    OIDC_ALLOW_HTTP: "on",
  });
  server.stdout?.on("data", (d) => (output += d));
  server.stderr?.on("data", (d) => (output += d));
  await waitUntilServing(baseUrl, server, () => output);
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
      "There is no Tally account for stranger@school.example — ask your programme administrator.",
    );
    expect(new URL(page.url()).hash).toBe("");
  });
});
