import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { expectNoSeriousA11yViolations, expectTitle, newContext, settled, STEP_TIMEOUT_MS, visible } from "./browser";
import { openSignedIn, type SignedIn, useSignedInPage } from "./journey-setup";
import { apiAs, cardLines, eventually, filterInput, optionLabels, studentCards, studentsHeadingCount } from "./dashboards-page";
import { ADMIN, SCHOOL } from "./demo-accounts";

// An admin hides one cohort for one school in School Data Visibility; that school's user no
// longer sees it on the next load of their dashboard. The cohort is shown again afterwards,
// so the other journeys find the demo data as seeded.
const SCHOOL_ID = 1;
const SCHOOL_NAME = SCHOOL.title.replace(/ Dashboard$/, "");

const admin = useSignedInPage(ADMIN);
let schoolUser: SignedIn;
let schoolApi: ReturnType<typeof apiAs>;
let cohort: { id: number; name: string };

interface Cohort {
  id: number;
  name: string;
}

beforeAll(async () => {
  schoolUser = await openSignedIn(admin.browser(), SCHOOL);
  schoolApi = apiAs(schoolUser.context, schoolUser.token);
  // A cohort the school user sees today, with students of theirs in it.
  for (const c of (await schoolApi<{ data: Cohort[] }>("/cohorts")).body.data) {
    if ((await schoolApi<{ total: number }>("/students", { cohortId: c.id, limit: 1 })).body.total > 0) {
      cohort = c;
      break;
    }
  }
  if (!cohort) throw new Error(`No cohort with students at ${SCHOOL_NAME} in the demo data`);
});

// Before the browser closes: the cohort is shown again.
afterAll(async () => {
  await admin.context?.request.post("/api/settings/cohort-visibility", {
    headers: { Authorization: `Bearer ${admin.token}` },
    data: { settings: [{ cohort_id: cohort.id, school_id: SCHOOL_ID, is_visible: true }] },
  });
});

async function openSchoolDashboard(): Promise<Page> {
  const page = await schoolUser.context.newPage();
  // Every cohort the school may see (the dashboard opens on the current cohort otherwise), so
  // the heading counts what the API's unfiltered list does.
  await page.goto(`${SCHOOL.home}?cohort=all`);
  await expectTitle(page, SCHOOL.title);
  await visible(page.getByRole("heading", { level: 2, name: /^Students \(\d+\)$/ }));
  await settled(page);
  return page;
}

async function openVisibilitySection(page: Page): Promise<Locator> {
  await page.goto("/admin/settings");
  await expectTitle(page, "Admin Settings");
  const section = page.getByRole("region", { name: "School Data Visibility" });
  await visible(section.getByRole("switch").first());
  await settled(page);
  return section;
}

async function showSettingsFor(page: Page, section: Locator, school: string): Promise<void> {
  const input = section.getByLabel("Show settings for", { exact: true });
  await input.click();
  const listbox = page.locator(`#${await input.getAttribute("aria-controls")}`);
  await listbox.getByRole("option", { name: school, exact: true }).click();
  await eventually(() => input.inputValue(), school, `the school filter to show ${school}`);
}

describe("School Data Visibility", () => {
  test("the school user sees the cohort before it is hidden", async () => {
    const page = await openSchoolDashboard();
    expect(await optionLabels(page, "Cohort")).toContain(cohort.name);
    await page.close();
  });

  test("an admin hides the cohort for one school with the keyboard and saves", async () => {
    const page = await admin.context.newPage();
    const section = await openVisibilitySection(page);
    await showSettingsFor(page, section, SCHOOL_NAME);
    const toggle = section.getByRole("switch", { name: cohort.name, exact: true });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.focus();
    await page.keyboard.press("Space");
    await expect.poll(() => toggle.isChecked(), { timeout: STEP_TIMEOUT_MS }).toBe(false);
    const badge = section.getByTestId("unsaved-badge");
    expect((await badge.textContent())?.trim()).toBe("Unsaved changes: 1");

    // The change survives looking at All schools (where the cohort is still shown) and back.
    await showSettingsFor(page, section, "All schools");
    expect(await section.getByRole("switch", { name: cohort.name, exact: true }).isChecked()).toBe(true);
    await showSettingsFor(page, section, SCHOOL_NAME);
    expect(await toggle.isChecked()).toBe(false);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "/tmp/settings-visibility-unsaved.png", animations: "disabled" });

    await section.getByRole("button", { name: "Save visibility settings" }).click();
    await visible(section.getByText("Visibility settings saved successfully.", { exact: true }));
    expect(await badge.count()).toBe(0);
    await expectNoSeriousA11yViolations(page, "the School Data Visibility section");
    await page.close();
  });

  test("the school user's dashboard no longer shows the cohort", async () => {
    const page = await openSchoolDashboard();
    expect(await optionLabels(page, "Cohort")).not.toContain(cohort.name);
    await visible(studentCards(page).first());
    expect(await cardLines(page, "Cohort")).not.toContain(cohort.name);
    expect(await studentsHeadingCount(page)).toBe((await schoolApi<{ total: number }>("/students", { limit: 1 })).body.total);
    expect((await schoolApi<{ total: number }>("/students", { cohortId: cohort.id, limit: 1 })).body.total).toBe(0);
    await expect.poll(() => filterInput(page, "Cohort").isVisible()).toBe(true);
    await page.close();
  });

  test("works at 390 px wide", async () => {
    const narrow = await newContext(admin.browser(), { width: 390, height: 844, storageState: await admin.context.storageState() });
    const page = await narrow.newPage();
    const section = await openVisibilitySection(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "/tmp/settings-visibility-390.png", animations: "disabled" });
    await narrow.close();
  });
});
