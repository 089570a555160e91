import type { Page } from "playwright-core";
import { beforeAll, describe, test } from "vitest";
import { expectNoSeriousA11yViolations, expectTitle, newContext, requestResetLink, signIn, visible, waitForPath } from "./browser";
import { useBrowser } from "./journey-setup";
import { ADMIN_2, ROLE_ACCOUNTS, SCHOOL } from "./demo-accounts";

// axe-core finds serious and critical problems only in what is on screen, so each test first
// brings the page to the state it names.
const browser = useBrowser();
let page: Page;

beforeAll(async () => {
  page = await (await newContext(browser())).newPage();
});

describe("public pages have no serious accessibility violations", () => {
  test("sign-in page", async () => {
    await page.goto("/login");
    await expectTitle(page, "Sign in to Tally");
    await expectNoSeriousA11yViolations(page, "the sign-in page");
  });

  test("sign-in page with the Forgot password dialog open", async () => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await visible(page.getByRole("dialog", { name: "Reset Password" }));
    await expectNoSeriousA11yViolations(page, "the Reset Password dialog");
  });

  test("sign-in page after a failed sign-in, and with empty-field errors", async () => {
    await signIn(page, "nobody-here", "Wrong-Passw0rd!");
    await visible(page.getByTestId("login-error"));
    await expectNoSeriousA11yViolations(page, "the sign-in page after a failed sign-in");
    await page.getByLabel("Username or Email").fill("");
    await page.getByLabel("Password", { exact: true }).fill("");
    await page.getByRole("button", { name: "Sign In" }).click();
    await visible(page.getByText("Please enter your password"));
    await expectNoSeriousA11yViolations(page, "the sign-in page with field errors");
  });

  test("password reset page: form with a valid link, then its field errors", async () => {
    // admin2 belongs to this file: the link is opened, never used, so the password stays.
    const link = await requestResetLink(page, ADMIN_2.email);
    await expectNoSeriousA11yViolations(page, "the Reset Password dialog after sending");
    await page.goto(link);
    await visible(page.getByLabel("New password"));
    await page.getByLabel("New password").fill("weak");
    await expectNoSeriousA11yViolations(page, "the password reset form");
    await page.getByRole("button", { name: "Update Password" }).click();
    await visible(page.getByText("Please choose a stronger password"));
    await expectNoSeriousA11yViolations(page, "the password reset form with errors");
  });

  test("password reset page with an invalid link", async () => {
    await page.goto("/set-password#token=not-a-real-token");
    await visible(page.getByText("This password reset link is invalid or has expired."));
    await expectNoSeriousA11yViolations(page, "the password reset page with a bad link");
  });

  test("e-mail verification page", async () => {
    await page.goto("/verify#token=not-a-real-token");
    await expectTitle(page, "Email Verification");
    await visible(page.getByRole("link", { name: "Return to Login" }));
    await expectNoSeriousA11yViolations(page, "the verification page (failed)");
    await page.goto("/verify");
    await visible(page.getByRole("link", { name: "Return to Login" }));
    await expectNoSeriousA11yViolations(page, "the verification page (no token)");
  });

  test("404 page", async () => {
    await page.goto("/no-such-page");
    await expectTitle(page, "Page not found");
    await expectNoSeriousA11yViolations(page, "the 404 page");
  });

  test("Access Denied page", async () => {
    await page.goto("/unauthorized");
    await expectTitle(page, "Access Denied");
    await expectNoSeriousA11yViolations(page, "the Access Denied page (signed out)");
  });
});

describe("each role's landing page has no serious accessibility violations", () => {
  test.each(ROLE_ACCOUNTS)("$role on $home", async (account) => {
    const context = await newContext(browser());
    try {
      const own = await context.newPage();
      await signIn(own, account.username);
      await waitForPath(own, account.home);
      await expectTitle(own, account.title);
      await expectNoSeriousA11yViolations(own, `${account.username}'s landing page`);
      if (account.username === SCHOOL.username) {
        await own.goto("/users");
        await waitForPath(own, "/unauthorized");
        await expectTitle(own, "Access Denied");
        await expectNoSeriousA11yViolations(own, "the Access Denied page (signed in)");
      }
    } finally {
      await context.close();
    }
  });
});
