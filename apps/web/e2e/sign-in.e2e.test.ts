import type { BrowserContext, Page } from "playwright-core";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { expectTitle, newContext, signIn, visible, waitForPath } from "./browser";
import { useBrowser } from "./journey-setup";
import { ADMIN, DISTRICT, INACTIVE, ROLE_ACCOUNTS, SCHOOL } from "./demo-accounts";

// Signing in is what these journeys test, so each one signs in afresh in a clean context.
const browser = useBrowser();
let context: BrowserContext;
let page: Page;

beforeEach(async () => {
  context = await newContext(browser());
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

async function loginError(): Promise<string> {
  const alert = await visible(page.getByTestId("login-error"));
  return (await alert.textContent())?.trim() ?? "";
}

describe("signing in", () => {
  test.each(ROLE_ACCOUNTS)("$role ($username) lands on $home titled $title", async (account) => {
    await signIn(page, account.username);
    await waitForPath(page, account.home);
    await expectTitle(page, account.title);
    await expect.poll(() => page.getByTestId("header-user-email").textContent()).toBe(account.email);
  });

  test("by e-mail, typed in capitals, works like the username", async () => {
    await signIn(page, DISTRICT.email.toUpperCase());
    await waitForPath(page, DISTRICT.home);
    await expectTitle(page, DISTRICT.title);
  });

  test("a school user signing in by e-mail lands on their own school", async () => {
    await signIn(page, `  ${SCHOOL.email}  `);
    await waitForPath(page, SCHOOL.home);
    await expectTitle(page, SCHOOL.title);
  });

  test("a wrong password is refused with Invalid credentials and stays on /login", async () => {
    await signIn(page, ADMIN.username, "Wrong-Passw0rd!");
    expect(await loginError()).toBe("Invalid credentials");
    expect(new URL(page.url()).pathname).toBe("/login");
    await expectTitle(page, "Sign in to Tally");
  });

  test("a deactivated account gets the same answer as a wrong password", async () => {
    await signIn(page, INACTIVE.username);
    expect(await loginError()).toBe("Invalid credentials");
    expect(new URL(page.url()).pathname).toBe("/login");
  });

  test("empty fields are caught before anything is sent", async () => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign In" }).click();
    await visible(page.getByText("Please enter your username or email"));
    await visible(page.getByText("Please enter your password"));
    expect(await page.getByTestId("login-error").count()).toBe(0);
  });
});
