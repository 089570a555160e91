import { Secret, TOTP } from "otpauth";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { baseUrl, demoPassword, expectTitle, newContext, settled, signIn, visible, waitForPath } from "./browser";
import { useBrowser } from "./journey-setup";
import { SUPER_ADMIN } from "./demo-accounts";

// One admin's story: set up an authenticator app from the header (the e-mail), then sign
// in with its code, and with a recovery code. The account is made here, so no other journey
// meets its second factor.

const browser = useBrowser();
let page: Page;
const USERNAME = `two-step-${process.pid}`;
const PASSWORD = "Quartz-Heron-Lantern-73";
let secret = "";
let recoveryCodes: string[] = [];

/** What the authenticator app shows `offsetSteps` steps from now (+1: the next code, never the one just used). */
const code = (offsetSteps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), period: 30, timestamp: Date.now() + offsetSteps * 30_000 });

async function api<T>(path: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(new URL(`/api${path}`, baseUrl()), {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  const { token } = await api<{ token: string }>("/auth/login", { login: SUPER_ADMIN.username, password: demoPassword() });
  await api("/auth/register", { username: USERNAME, email: `${USERNAME}@tally.demo`, role: "admin", password: PASSWORD }, token);
  page = await (await newContext(browser())).newPage();
});

describe("two-step sign-in", () => {
  test("is set up from the header's e-mail link: a QR code and the key, turned on with a code, ten recovery codes shown once", async () => {
    await signIn(page, USERNAME, PASSWORD);
    await waitForPath(page, "/dashboard");
    // The header's e-mail leads to the account's two-step sign-in.
    await page.getByRole("banner").getByRole("link", { name: `${USERNAME}@tally.demo` }).click();
    await waitForPath(page, "/account/two-step");
    await expectTitle(page, "Two-step sign-in");
    await page.getByRole("button", { name: "Set up an authenticator app" }).click();
    // Adding a factor: confirm it is you first.
    await (await visible(page.getByLabel("Your password"))).fill(PASSWORD);
    await page.getByRole("button", { name: "Confirm" }).click();
    await visible(page.getByRole("img", { name: "QR code to scan with your authenticator app" }));
    secret = ((await page.getByTestId("totp-secret").textContent()) ?? "").replace(/\s+/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    await page.getByLabel("Enter the 6-digit code").fill("12");
    await page.getByRole("button", { name: "Turn on" }).click();
    await visible(page.getByText("Enter the 6-digit code", { exact: true }).last());
    await page.getByLabel("Enter the 6-digit code").fill(code());
    await page.getByRole("button", { name: "Turn on" }).click();
    await visible(page.getByTestId("recovery-codes"));
    recoveryCodes = await page.getByTestId("recovery-code").allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await page.getByRole("button", { name: "I have saved my codes" }).click();
    await visible(page.getByTestId("recovery-codes-left"));
    expect(await page.getByTestId("two-step-state").textContent()).toBe("On");
    await settled(page);
    await page.screenshot({ path: "/tmp/two-step-on.png" });
  });

  test("signing in then asks for the code after the password; a wrong one is refused", async () => {
    await page.getByRole("link", { name: "Back to Tally" }).click();
    await waitForPath(page, "/dashboard");
    // A fresh tab: a Logout's own end-of-session notice could race the next sign-in in this one.
    page = await (await newContext(browser())).newPage();
    await signIn(page, USERNAME, PASSWORD);
    const field = await visible(page.getByLabel("Enter the 6-digit code"));
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toMatch(/refresh/i);
    await page.screenshot({ path: "/tmp/two-step-code.png" });
    const wrong = String((Number(code(1)) + 500_000) % 1_000_000).padStart(6, "0");
    await field.fill(wrong);
    await page.getByRole("button", { name: "Verify" }).click();
    await visible(page.getByTestId("mfa-error"));
    await field.fill(code(1));
    await page.getByRole("button", { name: "Verify" }).click();
    await waitForPath(page, "/dashboard");
    await expectTitle(page, "Admin Dashboard");
  });

  test("a recovery code signs in once instead", async () => {
    // Fresh tabs: a Logout's own end-of-session notice may still be on its way to the old one.
    const fresh = async () => (await newContext(browser())).newPage();
    page = await fresh();
    await signIn(page, USERNAME, PASSWORD);
    await page.getByRole("button", { name: "Use a recovery code instead" }).click();
    await page.getByLabel("Recovery code").fill(recoveryCodes[0] ?? "");
    await page.getByRole("button", { name: "Verify" }).click();
    await waitForPath(page, "/dashboard");

    page = await fresh();
    await signIn(page, USERNAME, PASSWORD);
    await page.getByRole("button", { name: "Use a recovery code instead" }).click();
    await page.getByLabel("Recovery code").fill(recoveryCodes[0] ?? "");
    await page.getByRole("button", { name: "Verify" }).click();
    await visible(page.getByTestId("mfa-error"));
    expect(new URL(page.url()).pathname).toBe("/login");
  });
});
