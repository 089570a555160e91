import type { Locator, Page } from "playwright-core";
import { afterAll, describe, expect, test } from "vitest";
import { expectNoSeriousA11yViolations, expectTitle, newContext, settled, signIn, visible, waitForPath } from "./browser";
import { useSignedInPage } from "./journey-setup";
import { ADMIN, SCHOOL } from "./demo-accounts";

// The demo school's toggles, as an admin runs them: open the demo dashboard from Admin
// Settings, give school users a read-only "Demo school" link, then switch the demo off and
// see its own user refused. The tests run in order; afterAll puts the defaults back, since
// the other journeys share this server.
const DEMO_DASHBOARD = "/school/123/dashboard";
const DEMO_TITLE = "Demo High School Dashboard";

const admin = useSignedInPage(ADMIN);

// Before the browser closes: the defaults go back through the admin's page.
afterAll(async () => {
  if (admin.page) await saveToggles({ visible: true, adminAccess: true, schoolAccess: false }).catch(() => undefined);
});

async function demoSection(page: Page = admin.page): Promise<Locator> {
  await page.goto("/admin/settings");
  await expectTitle(page, "Admin Settings");
  const section = await visible(page.getByRole("region", { name: "Demo school settings" }));
  await visible(section.getByRole("switch", { name: /Demo school visible/ }));
  await settled(page);
  return section;
}

const switchOf = (section: Locator, name: RegExp) => section.getByRole("switch", { name });

/** Sets the three switches (the access ones only while visible) and saves. */
async function saveToggles(want: { visible: boolean; adminAccess: boolean; schoolAccess: boolean }): Promise<Locator> {
  const section = await demoSection();
  const set = async (name: RegExp, on: boolean) => {
    const s = switchOf(section, name);
    if ((await s.isChecked()) !== on) await s.click({ force: true });
  };
  await set(/Demo school visible/, true);
  await set(/Admin access/, want.adminAccess);
  await set(/School access/, want.schoolAccess);
  await set(/Demo school visible/, want.visible);
  const save = section.getByRole("button", { name: "Save Demo Settings" });
  if (await save.isEnabled()) {
    await save.click();
    await visible(section.getByText("Demo settings saved successfully."));
  }
  return section;
}

describe("Demo school settings", () => {
  test("shows the defaults, and the access switches follow the visible switch", async () => {
    const section = await demoSection();
    expect(await switchOf(section, /Demo school visible/).isChecked()).toBe(true);
    expect(await switchOf(section, /Admin access/).isChecked()).toBe(true);
    expect(await switchOf(section, /School access/).isChecked()).toBe(false);
    await switchOf(section, /Demo school visible/).click({ force: true });
    expect(await switchOf(section, /Admin access/).isDisabled()).toBe(true);
    expect(await switchOf(section, /School access/).isDisabled()).toBe(true);
    await switchOf(section, /Demo school visible/).click({ force: true });
    expect(await switchOf(section, /Admin access/).isDisabled()).toBe(false);
    await expectNoSeriousA11yViolations(admin.page, "the demo settings section");
    await section.screenshot({ path: "/tmp/settings-demo.png" });
  });

  test("an admin opens the demo school's dashboard from the section", async () => {
    const section = await demoSection();
    await section.getByRole("link", { name: "Open the demo school dashboard" }).click();
    await waitForPath(admin.page, DEMO_DASHBOARD);
    await expectTitle(admin.page, DEMO_TITLE);
    await visible(admin.page.getByRole("heading", { name: /Students \(/ }));
    await settled(admin.page);
    await admin.page.screenshot({ path: "/tmp/settings-demo-dashboard.png" });
  });

  test("school access gives a school user a read-only Demo school link; off, the page is refused", async () => {
    await saveToggles({ visible: true, adminAccess: true, schoolAccess: true });
    const context = await newContext(admin.browser(), { width: 390, height: 844 });
    const school = await context.newPage();
    await signIn(school, SCHOOL.username);
    await waitForPath(school, SCHOOL.home);
    await expectTitle(school, SCHOOL.title);
    await settled(school);
    // The extra link still leaves the phone header at two rows at most.
    expect((await school.locator("header").first().boundingBox())?.height ?? 0).toBeLessThan(130);
    await school.screenshot({ path: "/tmp/settings-demo-link-390.png" });
    await school.getByRole("link", { name: "Demo school" }).click();
    await waitForPath(school, DEMO_DASHBOARD);
    await expectTitle(school, DEMO_TITLE);
    await visible(school.getByRole("heading", { name: /Students \(/ }));
    await settled(school);
    await school.screenshot({ path: "/tmp/settings-demo-school-390.png", fullPage: false });

    await saveToggles({ visible: true, adminAccess: true, schoolAccess: false });
    await school.goto(DEMO_DASHBOARD);
    await waitForPath(school, "/unauthorized");
    await school.goto(SCHOOL.home);
    await expectTitle(school, SCHOOL.title);
    await settled(school);
    expect(await school.getByRole("link", { name: "Demo school" }).count()).toBe(0);
    await context.close();
  });

  test("switched off, the demo school's own user cannot sign in", async () => {
    const section = await saveToggles({ visible: false, adminAccess: true, schoolAccess: false });
    expect(await switchOf(section, /Admin access/).isDisabled()).toBe(true);
    const context = await newContext(admin.browser());
    const demo = await context.newPage();
    await signIn(demo, "demo");
    await visible(demo.getByText("The demo school is switched off."));
    expect(new URL(demo.url()).pathname).toBe("/login");
    await context.close();

    await saveToggles({ visible: true, adminAccess: true, schoolAccess: false });
    const again = await newContext(admin.browser());
    const page = await again.newPage();
    await signIn(page, "demo");
    await waitForPath(page, DEMO_DASHBOARD);
    await again.close();
  });
});
