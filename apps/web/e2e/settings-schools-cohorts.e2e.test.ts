import type { Locator, Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { expectNoSeriousA11yViolations, expectTitle, newContext, settled, visible } from "./browser";
import { useSignedInPage } from "./journey-setup";
import { ADMIN } from "./demo-accounts";

// An admin keeps the programme's list of schools and cohorts right from Admin Settings: adds a
// school, renames it, adds a cohort and edits it, and sees each change listed. The tests run in
// order and share the admin's tab. The names are this file's own, so other journeys never meet them.
const SCHOOL = "Juniper Ridge Academy";
const RENAMED = "Juniper Ridge High School";
const COHORT = "Juniper Summer Internship";
/** Where the screenshots go to be looked at (not compared). */
const SHOTS = "/tmp/";

const admin = useSignedInPage(ADMIN);

const section = (page: Page, title: string): Locator =>
  page.getByRole("region", { name: title, exact: true });

async function openSettings(page: Page): Promise<void> {
  await page.goto("/admin/settings");
  await expectTitle(page, "Admin Settings");
  await visible(section(page, "System Settings").getByRole("table", { name: "Schools" }));
  await visible(section(page, "Cohort & Weekly Data Management").getByRole("table", { name: "Cohorts" }));
  await settled(page);
}

const successText = async (where: Locator): Promise<string | undefined> =>
  (await where.getByTestId("success-banner").allTextContents())[0]?.trim();

describe("schools", () => {
  test("an admin adds a school and sees it listed with no students yet", async () => {
    const { page } = admin;
    await openSettings(page);
    const system = section(page, "System Settings");
    await system.getByRole("button", { name: "Add school" }).click();
    const dialog = await visible(page.getByRole("dialog", { name: "Add School" }));
    await dialog.getByLabel("School name").fill(SCHOOL);
    await dialog.getByLabel("District").fill("Westfield");
    await dialog.getByRole("button", { name: "Add School" }).click();
    await expect.poll(() => successText(system)).toBe(`School "${SCHOOL}" added successfully.`);
    await expect.poll(() => dialog.count()).toBe(0);
    const row = system.getByRole("row").filter({ hasText: SCHOOL });
    await visible(row);
    expect((await row.getByRole("cell").allTextContents()).slice(0, 3)).toEqual([SCHOOL, "Westfield", "0"]);
  });

  test("the same name in other letter case is refused at the name field", async () => {
    const { page } = admin;
    const system = section(page, "System Settings");
    await system.getByRole("button", { name: "Add school" }).click();
    const dialog = await visible(page.getByRole("dialog", { name: "Add School" }));
    await dialog.getByLabel("School name").fill(SCHOOL.toUpperCase());
    await dialog.getByRole("button", { name: "Add School" }).click();
    await visible(dialog.getByText(`A school named "${SCHOOL.toUpperCase()}" already exists`));
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
  });

  test("an admin renames the school, by keyboard alone, and the dashboards' school list follows", async () => {
    const { page } = admin;
    const system = section(page, "System Settings");
    await system.getByRole("button", { name: `Rename ${SCHOOL}` }).focus();
    await page.keyboard.press("Enter");
    const dialog = await visible(page.getByRole("dialog", { name: "Rename School" }));
    const name = dialog.getByLabel("School name");
    await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true);
    await name.fill(RENAMED);
    await page.keyboard.press("Enter");
    await expect.poll(() => successText(system)).toBe(`School "${RENAMED}" updated successfully.`);
    await visible(system.getByRole("cell", { name: RENAMED, exact: true }));
    expect(await system.getByRole("cell", { name: SCHOOL, exact: true }).count()).toBe(0);
    const names = await page.evaluate(async () => {
      const token = localStorage.getItem("tally.token");
      const res = await fetch("/api/schools", { headers: { Authorization: `Bearer ${token}` } });
      return ((await res.json()) as { data: Array<{ name: string }> }).data.map((s) => s.name);
    });
    expect(names).toContain(RENAMED);
    expect(names).not.toContain(SCHOOL);
  });
});

describe("cohorts", () => {
  test("an admin adds a cohort and sees its dates, hours and weeks listed", async () => {
    const { page } = admin;
    const cohorts = section(page, "Cohort & Weekly Data Management");
    await cohorts.getByRole("button", { name: "Add cohort" }).click();
    const dialog = await visible(page.getByRole("dialog", { name: "Add Cohort" }));
    await dialog.getByLabel("Cohort name").fill(COHORT);
    await dialog.getByLabel("Program type").selectOption("Internship (6 week)");
    await dialog.getByLabel("Start date").fill("2027-06-07");
    await dialog.getByLabel("End date").fill("2027-06-01");
    await dialog.getByLabel("Total expected hours").fill("120");
    await dialog.getByRole("button", { name: "Add Cohort" }).click();
    await visible(dialog.getByText("End date must be after the start date"));
    await dialog.getByLabel("End date").fill("2027-07-16");
    await visible(dialog.getByText("6 weeks from these dates"));
    await dialog.getByRole("button", { name: "Add Cohort" }).click();
    await expect.poll(() => successText(cohorts)).toBe(`Cohort "${COHORT}" added successfully.`);
    const row = await visible(cohorts.getByRole("row").filter({ hasText: COHORT }));
    expect((await row.getByRole("cell").allTextContents()).slice(0, 7)).toEqual([
      COHORT,
      "Internship (6 week)",
      "2027-06-07",
      "2027-07-16",
      "120",
      "0",
      "6",
    ]);
    await expect.poll(() => cohorts.getByRole("button", { name: "Import Weekly Data for Cohort" }).isDisabled()).toBe(false);
  });

  test("an admin edits the cohort's program type and hours", async () => {
    const { page } = admin;
    const cohorts = section(page, "Cohort & Weekly Data Management");
    await cohorts.getByRole("button", { name: `Edit ${COHORT}` }).click();
    const dialog = await visible(page.getByRole("dialog", { name: "Edit Cohort" }));
    await dialog.getByLabel("Program type").selectOption("Internship (8 week)");
    await dialog.getByLabel("End date").fill("2027-07-30");
    await dialog.getByLabel("Total expected hours").fill("160");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expect.poll(() => successText(cohorts)).toBe(`Cohort "${COHORT}" updated successfully.`);
    const row = cohorts.getByRole("row").filter({ hasText: COHORT });
    await expect.poll(async () => (await row.getByRole("cell").allTextContents()).slice(1, 7)).toEqual([
      "Internship (8 week)",
      "2027-06-07",
      "2027-07-30",
      "160",
      "0",
      "8",
    ]);
  });
});

describe("layout and accessibility", () => {
  test("both sections have no serious axe violation, with a dialog open too", async () => {
    const { page } = admin;
    await openSettings(page);
    await expectNoSeriousA11yViolations(page, "Admin Settings with the schools and cohorts");
    await section(page, "System Settings").screenshot({ path: `${SHOTS}v4-system-settings-1280.png`, animations: "disabled" });
    await section(page, "Cohort & Weekly Data Management").screenshot({ path: `${SHOTS}v4-cohorts-1280.png`, animations: "disabled" });
    await section(page, "Cohort & Weekly Data Management").getByRole("button", { name: "Add cohort" }).click();
    await visible(page.getByRole("dialog", { name: "Add Cohort" }));
    await expectNoSeriousA11yViolations(page, "the Add Cohort dialog");
    await page.screenshot({ path: `${SHOTS}v4-cohort-dialog-1280.png`, animations: "disabled" });
    await page.keyboard.press("Escape");
  });

  test("at 390 px the tables scroll sideways inside the page, which itself does not", async () => {
    const page = await (await newContext(admin.browser(), { storageState: admin.session, width: 390, height: 844 })).newPage();
    await openSettings(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const table = section(page, "Cohort & Weekly Data Management").getByRole("region", { name: /Cohorts table/ });
    expect(await table.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await section(page, "System Settings").screenshot({ path: `${SHOTS}v4-system-settings-390.png`, animations: "disabled" });
    await section(page, "Cohort & Weekly Data Management").screenshot({ path: `${SHOTS}v4-cohorts-390.png`, animations: "disabled" });
    await section(page, "Cohort & Weekly Data Management").getByRole("button", { name: "Add cohort" }).click();
    await visible(page.getByRole("dialog", { name: "Add Cohort" }));
    await page.screenshot({ path: `${SHOTS}v4-cohort-dialog-390.png`, animations: "disabled" });
    await expectNoSeriousA11yViolations(page, "the Add Cohort dialog at 390 px");
    await page.context().close();
  });
});
