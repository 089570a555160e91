import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { demoPassword, expectTitle, newContext, visible, waitForPath } from "./browser";
import { useSignedInPage } from "./journey-setup";
import { ADMIN, OTHER_SCHOOL_DASHBOARD, SCHOOL } from "./demo-accounts";

const school = useSignedInPage(SCHOOL);

async function signedOutPage(): Promise<Page> {
  const context = await newContext(school.browser());
  return context.newPage();
}

describe("a school user", () => {
  test("opens their own school's dashboard", async () => {
    const { page } = school;
    await page.goto(SCHOOL.home);
    await expectTitle(page, SCHOOL.title);
    expect(new URL(page.url()).pathname).toBe(SCHOOL.home);
  });

  test("typing another school's dashboard address lands on Access Denied", async () => {
    const { page } = school;
    await page.goto(OTHER_SCHOOL_DASHBOARD);
    await waitForPath(page, "/unauthorized");
    await expectTitle(page, "Access Denied");
  });

  test("opening User Management lands on Access Denied, with a way home", async () => {
    const { page } = school;
    await page.goto("/users");
    await waitForPath(page, "/unauthorized");
    await expectTitle(page, "Access Denied");
    await page.getByRole("link", { name: "Go to My Dashboard" }).click();
    await waitForPath(page, SCHOOL.home);
    await expectTitle(page, SCHOOL.title);
  });

  test("opening the admin dashboard lands on Access Denied", async () => {
    const { page } = school;
    await page.goto("/dashboard");
    await waitForPath(page, "/unauthorized");
    await expectTitle(page, "Access Denied");
  });
});

describe("a signed-out visitor", () => {
  test("opening /dashboard is sent to sign in, and after signing in comes back to it", async () => {
    const visitor = await signedOutPage();
    try {
      await visitor.goto("/dashboard");
      await waitForPath(visitor, "/login");
      await expectTitle(visitor, "Sign in to Tally");
      await visitor.getByLabel("Username or Email").fill(ADMIN.username);
      await visitor.getByLabel("Password", { exact: true }).fill(demoPassword());
      await visitor.getByRole("button", { name: "Sign In" }).click();
      await waitForPath(visitor, "/dashboard");
      await expectTitle(visitor, ADMIN.title);
    } finally {
      await visitor.context().close();
    }
  });

  test("opening a school dashboard or /users is sent to sign in", async () => {
    const visitor = await signedOutPage();
    try {
      for (const path of [SCHOOL.home, "/users", "/admin/settings", "/"]) {
        await visitor.goto(path);
        await waitForPath(visitor, "/login");
        await expectTitle(visitor, "Sign in to Tally");
      }
    } finally {
      await visitor.context().close();
    }
  });
});

describe("an unknown address", () => {
  test("shows Page not found with Go Back to a signed-out visitor", async () => {
    const visitor = await signedOutPage();
    try {
      await visitor.goto("/no-such-page/at-all");
      await expectTitle(visitor, "Page not found");
      await visible(visitor.getByRole("button", { name: "Go Back" }));
      expect(new URL(visitor.url()).pathname).toBe("/no-such-page/at-all");
    } finally {
      await visitor.context().close();
    }
  });

  test("Go Back with nothing to go back to takes a signed-in user home", async () => {
    const { page } = school;
    await page.goto("/reports/nowhere");
    await expectTitle(page, "Page not found");
    await page.getByRole("button", { name: "Go Back" }).click();
    await waitForPath(page, SCHOOL.home);
    await expectTitle(page, SCHOOL.title);
  });
});
