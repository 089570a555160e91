import { readFileSync } from "node:fs";
import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, inject, test } from "vitest";
import { expectTitle, newContext, requestResetLink, signIn, visible, waitForPath } from "./browser";
import { useBrowser } from "./journey-setup";
import { journeyServer } from "./journey-server";
import { SCHOOL_2 } from "./demo-accounts";

// school2 is this file's own account: its password changes here and nowhere else relies on it.
const NEW_PASSWORD = "Riverbend-Lantern-42!";

const browser = useBrowser();
let page: Page;
let resetLink: string;

beforeAll(async () => {
  page = await (await newContext(browser())).newPage();
});

/** The rendered colour of the strength bar, as [r, g, b]. */
async function barColour(meter: Locator): Promise<[number, number, number]> {
  const css = await meter.locator(".mantine-Progress-section").evaluate((el) => getComputedStyle(el).backgroundColor);
  const [r = 0, g = 0, b = 0] = (css.match(/\d+/g) ?? []).map(Number);
  return [r, g, b];
}

// One person's story, step by step: the tests run in order and share the tab.
describe("forgot password", () => {
  test("the dialog's request sends an e-mail with a reset link", async () => {
    resetLink = await requestResetLink(page, SCHOOL_2.email);
    expect(new URL(resetLink).origin).toBe(new URL(page.url()).origin);
    // The token rides in the fragment, which the browser never sends to the server.
    expect(new URL(resetLink).search).toBe("");
    expect(new URLSearchParams(new URL(resetLink).hash.slice(1)).get("token")).toMatch(/.{20,}/);
  });

  test("Cancel closes the dialog", async () => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    const dialog = await visible(page.getByRole("dialog", { name: "Reset Password" }));
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
  });

  test("the link opens the form; a weak password is refused with a red meter", async () => {
    await page.goto(resetLink);
    await expectTitle(page, "Set New Password");
    await visible(page.getByLabel("New password"));
    // The page took the token out of the address bar.
    expect(page.url()).toBe(new URL("/set-password", resetLink).href);
    const meter = page.getByTestId("password-strength");
    await page.getByLabel("New password").fill("password");
    await page.getByLabel("Confirm password").fill("password");
    await expect.poll(() => meter.getAttribute("data-strength-color")).toBe("red");
    const [r, g] = await barColour(meter);
    expect(r, "a weak password's bar is red").toBeGreaterThan(g);
    await page.getByRole("button", { name: "Update Password" }).click();
    await visible(page.getByText("Please choose a stronger password"));
    expect(new URL(page.url()).pathname).toBe("/set-password");
  });

  test("a strong password turns the meter green, is saved, and leads back to /login", async () => {
    const meter = page.getByTestId("password-strength");
    await page.getByLabel("New password").fill(NEW_PASSWORD);
    await page.getByLabel("Confirm password").fill(NEW_PASSWORD);
    await expect.poll(() => meter.getAttribute("data-strength-color")).toBe("green");
    await visible(meter.getByText(/Password strength: Strong/));
    const [r, g, b] = await barColour(meter);
    expect(g, "a strong password's bar is green").toBeGreaterThan(Math.max(r, b));
    await page.getByRole("button", { name: "Update Password" }).click();
    await visible(page.getByText("Password updated successfully! Redirecting to login..."));
    await waitForPath(page, "/login");
    await expectTitle(page, "Sign in to Tally");
  });

  test("the old password no longer works", async () => {
    await signIn(page, SCHOOL_2.username);
    const alert = await visible(page.getByTestId("login-error"));
    expect((await alert.textContent())?.trim()).toBe("Invalid credentials");
  });

  test("the new password signs in", async () => {
    await signIn(page, SCHOOL_2.username, NEW_PASSWORD);
    await waitForPath(page, SCHOOL_2.home);
    await expectTitle(page, SCHOOL_2.title);
  });

  test("the same link a second time is refused", async () => {
    const fresh = await (await newContext(browser())).newPage();
    try {
      await fresh.goto(resetLink);
      await expectTitle(fresh, "Set New Password");
      await visible(fresh.getByText("This password reset link is invalid or has expired."));
      expect(await fresh.getByLabel("New password").count()).toBe(0);
    } finally {
      await fresh.context().close();
    }
  });

  test("the server's log holds no token, password or reset link", async () => {
    const log = readFileSync(journeyServer().serverLogFile, "utf8");
    const token = new URLSearchParams(new URL(resetLink).hash.slice(1)).get("token")!;
    // The journey's requests were logged (by path), so the log's silence means something.
    expect(log).toContain('"url":"/set-password"');
    expect(log).toContain('"url":"/api/auth/verify-reset-token"');
    expect(log).toContain('"url":"/api/auth/set-password"');
    expect(log).toContain('"url":"/api/auth/login"');
    for (const secret of [token, encodeURIComponent(token), resetLink, NEW_PASSWORD, inject("demoPassword")]) {
      expect(log.includes(secret), `the server log holds ${secret}`).toBe(false);
    }
    expect(log).not.toMatch(/token=/);
  });
});
