import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { expectTitle, newContext, type SessionState, settled, signedInState, waitForPath } from "./browser";
import { useBrowser } from "./journey-setup";
import { ADMIN } from "./demo-accounts";

// Not committed: for a person to look at. The repository root's .tmp is git-ignored.
const SCREENS_DIR = new URL("../../../.tmp/screens/", import.meta.url).pathname;
const WIDTHS = [1280, 390] as const;

const browser = useBrowser();
let adminSession: SessionState;

beforeAll(async () => {
  mkdirSync(SCREENS_DIR, { recursive: true });
  adminSession = await signedInState(browser(), ADMIN.username, ADMIN.home);
});

/** How far the page is wider than the window: anything above 0 means sideways scrolling. */
function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

async function shoot(page: Page, name: string): Promise<void> {
  await settled(page);
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  await page.screenshot({ path: `${SCREENS_DIR}${name}.png`, fullPage: true, animations: "disabled" });
  // The first screen alone, at full size: a long full-page image is too small to read.
  await page.screenshot({ path: `${SCREENS_DIR}${name}-first-screen.png`, animations: "disabled" });
}

describe.each(WIDTHS)("at %i px wide", (width) => {
  test("the sign-in page fits and is captured", async () => {
    const context = await newContext(browser(), { width, height: 844 });
    try {
      const page = await context.newPage();
      await page.goto("/login");
      await expectTitle(page, "Sign in to Tally");
      await shoot(page, `sign-in-${width}`);
      expect(await horizontalOverflow(page), "the sign-in page scrolls sideways").toBeLessThanOrEqual(0);
    } finally {
      await context.close();
    }
  });

  test("the admin dashboard is captured", async () => {
    const context = await newContext(browser(), { width, height: 844, storageState: adminSession });
    try {
      const page = await context.newPage();
      await page.goto(ADMIN.home);
      await waitForPath(page, ADMIN.home);
      await expectTitle(page, ADMIN.title);
      await shoot(page, `admin-dashboard-${width}`);
    } finally {
      await context.close();
    }
  });
});
