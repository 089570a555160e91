import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { expectNoSeriousA11yViolations, expectTitle, newContext, type SessionState, settled, signedInState, visible } from "./browser";
import { useSignedInPage } from "./journey-setup";
import { horizontalOverflow } from "./dashboards-page";
import { ADMIN, SCHOOL } from "./demo-accounts";

// An admin turns export off for one school (the school account's own), and that school's user
// no longer sees the Export button; a school left alone keeps it. The file puts the settings
// back when it ends, so journeys after it see the defaults.
const SCHOOL_NAME = "Northgate High School";
const SAVED = "Feature settings saved successfully.";

const admin = useSignedInPage(ADMIN);
let schoolSession: SessionState;

beforeAll(async () => {
  schoolSession = await signedInState(admin.browser(), SCHOOL.username, SCHOOL.home);
});
afterAll(async () => {
  // Back to the defaults, through the API as the screen would (before the browser closes).
  await admin.page
    ?.evaluate(async () => {
      const token = localStorage.getItem("tally.token");
      await fetch("/api/settings/features", {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ enableExport: true, enableStudentEditing: true, applyToAllSchools: true, schoolSettings: {} }),
      });
    })
    .catch(() => undefined);
});

async function openFeatureSettings(page: Page): Promise<Locator> {
  await page.goto("/admin/settings");
  await expectTitle(page, "Admin Settings");
  const section = page.getByRole("region", { name: "School Feature Settings" });
  await visible(section.getByRole("switch", { name: "Enable export" }));
  await settled(page);
  return section;
}

/** A Mantine switch's input is visually hidden; its label is what a person clicks. */
async function setSwitch(section: Locator, name: string, on: boolean): Promise<void> {
  const input = section.getByRole("switch", { name, exact: true });
  if ((await input.isChecked()) !== on) await input.press("Space");
  await expect.poll(() => input.isChecked()).toBe(on);
}

async function schoolUserSeesExport(): Promise<boolean> {
  const context = await newContext(admin.browser(), { storageState: schoolSession });
  try {
    const page = await context.newPage();
    await page.goto(SCHOOL.home);
    await expectTitle(page, SCHOOL.title);
    await visible(page.getByRole("heading", { name: /^Students \(/ }));
    await settled(page);
    return await page.getByRole("button", { name: "Export", exact: true }).isVisible();
  } finally {
    await context.close();
  }
}

describe("School Feature Settings", () => {
  test("the school user sees the Export button by default", async () => {
    expect(await schoolUserSeesExport()).toBe(true);
  });

  test("an admin turns export off for one school, with the keyboard", async () => {
    const section = await openFeatureSettings(admin.page);
    await setSwitch(section, "Apply to all schools", false);
    const table = await visible(section.getByRole("table", { name: "Feature settings per school" }));
    // The per-school table starts from the global values.
    expect(await table.getByRole("switch", { name: `${SCHOOL_NAME} export` }).isChecked()).toBe(true);
    await section.getByRole("searchbox", { name: "Search schools" }).fill("northgate");
    await expect.poll(() => table.getByRole("row").count()).toBe(2);
    await setSwitch(section, `${SCHOOL_NAME} export`, false);
    await section.getByRole("button", { name: "Save", exact: true }).click();
    await visible(section.getByText(SAVED));
    await expectNoSeriousA11yViolations(admin.page, "School Feature Settings");
    // The saved state is what the screen shows after a reload.
    const again = await openFeatureSettings(admin.page);
    expect(await again.getByRole("switch", { name: "Apply to all schools" }).isChecked()).toBe(false);
    expect(await again.getByRole("switch", { name: `${SCHOOL_NAME} export` }).isChecked()).toBe(false);
    expect(await again.getByRole("switch", { name: `${SCHOOL_NAME} student editing` }).isChecked()).toBe(true);
    await again.screenshot({ path: "/tmp/v3-feature-settings.png" });
  });

  test("that school's user no longer sees the Export button; the admin still does", async () => {
    expect(await schoolUserSeesExport()).toBe(false);
    await admin.page.goto(ADMIN.home);
    await expectTitle(admin.page, ADMIN.title);
    await visible(admin.page.getByRole("button", { name: "Export", exact: true }));
  });

  test("the section is usable at 390 px", async () => {
    const context = await newContext(admin.browser(), { width: 390, height: 844, storageState: await admin.context.storageState() });
    try {
      const page = await context.newPage();
      const section = await openFeatureSettings(page);
      const table = await visible(section.getByRole("table", { name: "Feature settings per school" }));
      expect(await horizontalOverflow(page), "the page scrolls sideways").toBeLessThanOrEqual(0);
      const toggle = table.getByRole("switch", { name: `${SCHOOL_NAME} student editing` });
      const box = await toggle.locator("xpath=..").boundingBox();
      expect(box && box.x + box.width <= 390, "the last switch lies within the window").toBe(true);
      await section.screenshot({ path: "/tmp/v3-feature-settings-390.png" });
    } finally {
      await context.close();
    }
  });
});
