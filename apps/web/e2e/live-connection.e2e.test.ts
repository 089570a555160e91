import { mkdirSync } from "node:fs";
import { MESSAGES } from "@tally/contract";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { expectNoSeriousA11yViolations, expectTitle, newContext, settled, signIn, visible, waitForPath } from "./browser";
import { useBrowser } from "./journey-setup";
import { ADMIN, DISTRICT } from "./demo-accounts";
import { type StoppableServer, startStoppableServer } from "./stoppable-server";

// Not committed except the error page, which the README shows (docs/).
const SCREENS_DIR = new URL("../../../.tmp/screens/", import.meta.url).pathname;
const DOCS_DIR = new URL("../../../docs/", import.meta.url).pathname;

/** The profile check (10 s) meets the stopped server after its retries (1 + 2 + 4 s); then the health check. */
const NOTICE_OFFLINE_MS = 30_000;

const browser = useBrowser();
/** Stopped and restarted by these journeys, so they never take the worker's server down. */
let own: StoppableServer;

beforeAll(async () => {
  mkdirSync(SCREENS_DIR, { recursive: true });
  own = await startStoppableServer();
});
afterAll(async () => {
  await own?.close();
});

async function shoot(page: Page, path: string): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  await page.screenshot({ path, animations: "disabled" });
}

const statusButton = (page: Page) => page.getByTestId("api-status-button");

describe("the connection status in the header", () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext(browser(), { width: 390, height: 844 });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  test("shows nothing while online; offline, a header indicator in words that covers no control, reached by keyboard, with no address for a coordinator", async () => {
    await page.goto("/login");
    await expectTitle(page, "Sign in to Tally");
    await settled(page);
    expect(await statusButton(page).count()).toBe(0);

    // The browser's offline event marks the API offline at once.
    await context.setOffline(true);
    const button = await visible(page.getByRole("button", { name: "Offline: check the connection again" }));
    expect(await button.textContent()).toBe("Offline");
    await expect.poll(() => page.getByTestId("api-status-live").textContent()).toBe("API offline: Your device is offline");
    expect(await button.evaluate((el) => el.closest("header") !== null)).toBe(true);
    const overlaps = await button.evaluate((status) => {
      const box = status.getBoundingClientRect();
      const controls = [...document.querySelectorAll("button, input, a, [role=button]")].filter((el) => el !== status && !status.contains(el));
      return controls
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return r.width > 0 && r.left < box.right && box.left < r.right && r.top < box.bottom && box.top < r.bottom;
        })
        .map((el) => el.outerHTML.slice(0, 80));
    });
    expect(overlaps).toEqual([]);
    expect(await button.evaluate((el) => el.getBoundingClientRect().right <= window.innerWidth)).toBe(true);

    let focused = false;
    for (let i = 0; i < 30 && !focused; i++) {
      await page.keyboard.press("Tab");
      focused = await button.evaluate((el) => el === document.activeElement);
    }
    expect(focused, "Tab never reached the status indicator").toBe(true);
    const tooltip = await visible(page.getByRole("tooltip"));
    const text = await tooltip.textContent();
    expect(text).toContain("Your device is offline");
    expect(text).toMatch(/Last checked: /);
    expect(text).not.toContain("/api/");
    expect(await button.getAttribute("aria-describedby")).toBe(await tooltip.getAttribute("id"));
    await shoot(page, `${SCREENS_DIR}connection-status-390.png`);
    await expectNoSeriousA11yViolations(page, "the sign-in page with the offline indicator's tooltip open");

    await context.setOffline(false);
    await statusButton(page).waitFor({ state: "detached", timeout: 15_000 });
    await expect.poll(() => page.getByTestId("api-status-live").textContent()).toBe("Connected to the API server");
  });
});

describe("with the server stopped", () => {
  test("the Server Connection Error page shows the last sync time, and Try Again brings the app back after a restart", { timeout: 150_000 }, async () => {
    const context = await newContext(browser(), { baseUrl: own.baseUrl });
    try {
      const page = await context.newPage();
      await signIn(page, ADMIN.username);
      await waitForPath(page, ADMIN.home);
      await expectTitle(page, ADMIN.title);
      await settled(page);
      const synced = await page.evaluate(() => localStorage.getItem("lastSyncTime"));
      expect(synced, "the health check on start stores lastSyncTime").toBeTruthy();

      await own.stop();
      // No reload and no click: the open page notices by itself.
      await page
        .getByRole("heading", { level: 1, name: "Server Connection Error" })
        .waitFor({ state: "visible", timeout: NOTICE_OFFLINE_MS });
      const expected = await page.evaluate(() => new Date(localStorage.getItem("lastSyncTime") ?? "").toLocaleString());
      expect(await page.getByTestId("last-synchronized").textContent()).toBe(`Last synchronized: ${expected}`);
      await visible(page.getByText("Server maintenance"));
      await visible(page.getByText("Network connection issues"));
      await visible(page.getByRole("button", { name: "Try Again" }));
      await visible(page.getByRole("button", { name: "Return to Login" }));
      expect(await page.getByTestId("support-contact").textContent()).toMatch(/^If the problem persists, please contact /);
      await visible(page.getByRole("button", { name: "Offline: check the connection again" }));
      await expect.poll(() => page.getByTestId("api-status-live").textContent()).toBe("API offline: Cannot connect to the API server");
      await shoot(page, `${DOCS_DIR}server-connection-error.png`);
      await shoot(page, `${SCREENS_DIR}server-connection-error.png`);
      await expectNoSeriousA11yViolations(page, "the Server Connection Error page");

      await own.start();
      await page.getByRole("button", { name: "Try Again" }).click();
      await expectTitle(page, ADMIN.title);
      expect(new URL(page.url()).pathname).toBe(ADMIN.home);
      expect(await page.getByRole("heading", { name: "Server Connection Error" }).count()).toBe(0);
      expect(await statusButton(page).count()).toBe(0);
    } finally {
      await context.close();
      // A failure while it was stopped must not fail the journeys after this one too.
      await own.ensureRunning();
    }
  });
});

describe("the API Debug page", () => {
  test("tests the configured backend and its cross-origin endpoint, and notes the skipped ones", async () => {
    const context = await newContext(browser());
    try {
      const page = await context.newPage();
      await page.goto("/debug");
      await expectTitle(page, "API Debug");
      await page.getByRole("button", { name: "Run API Diagnostics" }).click();
      const health = page.getByTestId("diagnostic-configured-health");
      await visible(health.getByText("OK", { exact: true }));
      expect(await health.getByRole("cell").nth(3).textContent()).toBe("200");
      expect(await health.getByRole("cell").nth(4).textContent()).toMatch(/^\d+ ms$/);
      await visible(page.getByTestId("diagnostic-configured-cors").getByRole("cell").nth(3));
      await visible(page.getByTestId("diagnostic-dev-health").getByText("Skipped", { exact: true }));
      await visible(page.getByTestId("diagnostic-prod-health").getByText(/Not configured — skipped/));
      await settled(page);
      await page.screenshot({ path: `${SCREENS_DIR}api-debug.png`, fullPage: true, animations: "disabled" });
      await expectNoSeriousA11yViolations(page, "the API Debug page with results");
    } finally {
      await context.close();
    }
  });
});

// Needs the server's notification stream (GET /api/notifications): until it is there the
// profile check (every 10 s) is what ends the session, which misses the 5 s.
describe("an admin deactivates a user who is signed in in another browser", () => {
  test("the user's page lands on /login with the notice within 5 s", async () => {
    const userContext = await newContext(browser(), { baseUrl: own.baseUrl });
    const adminContext = await newContext(browser(), { baseUrl: own.baseUrl });
    try {
      const user = await userContext.newPage();
      await signIn(user, DISTRICT.username);
      await waitForPath(user, DISTRICT.home);
      await expectTitle(user, DISTRICT.title);

      const admin = await adminContext.newPage();
      await signIn(admin, ADMIN.username);
      await waitForPath(admin, ADMIN.home);
      await admin.goto("/users");
      await expectTitle(admin, "User Management");
      await admin.getByLabel("Search users").fill(DISTRICT.username);
      const row = admin.getByTestId(`user-row-${DISTRICT.username}`);
      await row.getByRole("button", { name: `Deactivate ${DISTRICT.username}` }).click();
      const dialog = await visible(admin.getByRole("dialog", { name: "Confirm Deactivation" }));
      await dialog.getByRole("button", { name: "Deactivate", exact: true }).click();
      const clicked = Date.now();

      await user.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("session") === "expired", {
        timeout: 5_000,
        waitUntil: "commit",
      });
      const notice = await visible(user.getByTestId("session-expired-notice"));
      expect([MESSAGES.sessionVersionMismatch, MESSAGES.sessionExpired]).toContain((await notice.textContent())?.trim());
      expect(Date.now() - clicked).toBeLessThan(5_000 + 2_000);
    } finally {
      await userContext.close();
      await adminContext.close();
    }
  });
});
