import type { Response } from "playwright-core";
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
});
