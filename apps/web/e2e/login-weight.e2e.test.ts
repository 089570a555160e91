import type { Page, Response } from "playwright-core";
import { describe, expect, test } from "vitest";
import { expectTitle, newContext, settled } from "./browser";
import { useBrowser } from "./journey-setup";

// Issue 29, "Weight": /login fetches no dashboard or chart code until someone starts signing
// in, and what it fetches comes compressed and, for the hashed files, cached for good.

const browser = useBrowser();
const DASHBOARD_CODE = /\/assets\/(dashboard-page|school-dashboard-page|student-dashboard|trend-chart|attendance-trend)[-.]/;

describe("the sign-in page's weight", () => {
  test("loads no dashboard or chart code, compressed and cacheable; the dashboards' code comes once the user starts typing", async () => {
    const context = await newContext(browser());
    try {
      const page = await context.newPage();
      const responses: Response[] = [];
      page.on("response", (res) => responses.push(res));
      await page.goto("/login");
      await expectTitle(page, "Sign in to Tally");
      await settled(page);

      const scripts = responses.filter((r) => r.request().resourceType() === "script").map((r) => new URL(r.url()).pathname);
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.filter((path) => DASHBOARD_CODE.test(path))).toEqual([]);

      const html = responses.find((r) => new URL(r.url()).pathname === "/login")!;
      expect(await html.headerValue("cache-control")).toBe("no-cache");
      for (const res of responses.filter((r) => new URL(r.url()).pathname.startsWith("/assets/"))) {
        expect(await res.headerValue("cache-control"), res.url()).toBe("public, max-age=31536000, immutable");
        // Chromium asks for brotli only over HTTPS; here it gets gzip.
        if ((await res.body()).length > 1024) expect(await res.headerValue("content-encoding"), res.url()).toMatch(/^(gzip|br)$/);
      }

      await page.getByLabel("Username or Email").focus();
      await expect.poll(() => responses.some((r) => DASHBOARD_CODE.test(new URL(r.url()).pathname)), { timeout: 10_000 }).toBe(true);
    } finally {
      await context.close();
    }
  });

  test("the page arrives already showing the sign-in screen, laid out as the app lays it out, its fields disabled until the app runs", async () => {
    const context = await newContext(browser(), { width: 412, height: 823 });
    try {
      // The screen before any code runs: what a slow phone paints first.
      const before = await context.newPage();
      // Nothing but the page itself: its styles are in it, and the app's code is asked for only after it has painted.
      await before.route("**/assets/**", (route) => route.abort());
      await before.goto("/login");
      await expectTitle(before, "Sign in to Tally");
      for (const label of ["Username or Email", "Password"]) await expect.poll(() => before.getByLabel(label).isDisabled()).toBe(true);
      expect(await before.getByRole("button", { name: "Sign In" }).isDisabled()).toBe(true);
      const painted = await layoutOf(before);

      const after = await context.newPage();
      await after.goto("/login");
      await expectTitle(after, "Sign in to Tally");
      await expect.poll(() => after.getByLabel("Username or Email").isEnabled()).toBe(true);
      await settled(after);
      // Same places to the pixel: swapping one for the other shifts nothing (CLS stays 0); the
      // same words, so the copy cannot drift from the page it stands in for.
      expect(await layoutOf(after)).toEqual(painted);
      expect(await textOf(after)).toBe(await textOf(before));
    } finally {
      await context.close();
    }
  });
});

const SIGN_IN_PARTS = ["h1", "input[name=login]", "input[name=password]", "button[type=submit]", "main"];

async function layoutOf(page: Page): Promise<Record<string, number[] | null>> {
  return page.evaluate((selectors) => {
    const boxes: Record<string, number[] | null> = {};
    for (const selector of selectors) {
      const box = document.querySelector(selector)?.getBoundingClientRect();
      boxes[selector] = box ? [box.x, box.y, box.width, box.height].map(Math.round) : null;
    }
    return boxes;
  }, SIGN_IN_PARTS);
}

/** The visible words of the main area (the header adds the live connection's state), spaces folded. */
function textOf(page: Page): Promise<string> {
  return page.evaluate(() => (document.querySelector("main")?.innerText ?? "").replace(/\s+/g, " ").trim());
}
