import { describe, expect, test } from "vitest";
import { baseUrl, expectTitle, waitForPath } from "./browser";
import { useSignedInPage } from "./journey-setup";
import { SUPER_ADMIN } from "./demo-accounts";

const superAdmin = useSignedInPage(SUPER_ADMIN);

// The tests run in order and share one signed-in tab: the last one ends the session.
describe("a session", () => {
  test("survives a reload", async () => {
    const { page } = superAdmin;
    await page.goto("/dashboard");
    await expectTitle(page, SUPER_ADMIN.title);
    await page.reload();
    await expectTitle(page, SUPER_ADMIN.title);
    expect(new URL(page.url()).pathname).toBe("/dashboard");
    await expect.poll(() => page.getByTestId("header-user-email").textContent()).toBe(SUPER_ADMIN.email);
    await expect.poll(() => page.getByTestId("header-role-label").textContent()).toBe("Super Admin");
  });

  test("is carried to a new tab, and / leads home", async () => {
    const { context } = superAdmin;
    const second = await context.newPage();
    try {
      await second.goto("/");
      await waitForPath(second, SUPER_ADMIN.home);
      await expectTitle(second, SUPER_ADMIN.title);
    } finally {
      await second.close();
    }
  });

  test("stays signed in when two tabs refresh their token at the same moment", async () => {
    const { page, context } = superAdmin;
    await page.goto("/dashboard");
    await expectTitle(page, SUPER_ADMIN.title);
    const second = await context.newPage();
    try {
      await second.goto("/dashboard");
      await expectTitle(second, SUPER_ADMIN.title);
      const before = await page.evaluate(() => localStorage.getItem("tally.refreshToken"));
      // Both tabs wake with a refused access token and the same refresh token, and refresh at once.
      await page.evaluate(() => localStorage.setItem("tally.token", "refused-access-token"));
      await Promise.all([page.reload(), second.reload()]);
      await expectTitle(page, SUPER_ADMIN.title);
      await expectTitle(second, SUPER_ADMIN.title);
      await expect.poll(() => page.evaluate(() => localStorage.getItem("tally.token"))).not.toBe("refused-access-token");
      const after = await page.evaluate(() => localStorage.getItem("tally.refreshToken"));
      expect(after).not.toBe(before);
      // Neither refresh was taken for theft: the stored pair still works in both tabs.
      for (const tab of [page, second]) {
        await tab.reload();
        await expectTitle(tab, SUPER_ADMIN.title);
        expect(new URL(tab.url()).pathname).toBe("/dashboard");
      }
      const res = await fetch(`${baseUrl()}/api/auth/profile`, {
        headers: { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem("tally.token"))}` },
      });
      expect(res.status).toBe(200);
    } finally {
      await second.close();
    }
  });

  test("ends with Logout: back to /login, and /dashboard then asks to sign in", async () => {
    const { page } = superAdmin;
    await page.goto("/dashboard");
    await expectTitle(page, SUPER_ADMIN.title);
    const refreshToken = await page.evaluate(() => localStorage.getItem("tally.refreshToken"));
    const accessToken = await page.evaluate(() => localStorage.getItem("tally.token"));
    expect(refreshToken).toBeTruthy();
    await page.getByRole("button", { name: "Logout" }).click();
    await waitForPath(page, "/login");
    await expectTitle(page, "Sign in to Tally");
    await page.goto("/dashboard");
    await waitForPath(page, "/login");
    await expectTitle(page, "Sign in to Tally");
    // Nothing is left in the browser, and the server no longer honours the old refresh token.
    const stored = await page.evaluate(() => ["tally.token", "tally.refreshToken", "tally.user"].map((k) => localStorage.getItem(k)));
    expect(stored).toEqual([null, null, null]);
    const res = await fetch(`${baseUrl()}/api/auth/refresh`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ refreshToken }),
    });
    expect(res.status).toBe(401);
    // Nor the access token, though it had minutes left.
    const profile = await fetch(`${baseUrl()}/api/auth/profile`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(profile.status).toBe(401);
  });
});
