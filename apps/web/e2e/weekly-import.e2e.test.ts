import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { expectNoSeriousA11yViolations, expectTitle, newContext, settled, visible } from "./browser";
import { useSignedInPage, WEEK3_FIXTURES } from "./journey-setup";
import { chooseOption, eventually, horizontalOverflow, studentsHeadingCount } from "./dashboards-page";
import { ADMIN } from "./demo-accounts";

// An admin imports a week of the three reports as a new cohort, sees it on the dashboard,
// imports the same files again (nothing changes), and undoes both imports, newest first.
// The tests run in order and share the admin's tab; the cohort name is this file's own.
const COHORT = "Summer Week 3 Test";
const FILES = {
  "Meeting attendance report": `${WEEK3_FIXTURES}meeting-attendance.csv`,
  "Progress report": `${WEEK3_FIXTURES}progress.csv`,
  "Reflection report": `${WEEK3_FIXTURES}reflections.csv`,
};
/** The schools the sample files name; the demo data has none of them. */
const SCHOOLS = ["Riverside Academy", "Eastwood Secondary", "Northside High School"];
/** Where the screenshots go to be looked at (not compared), and the README's copy. */
const SHOTS = "/tmp/";
const README_SHOT = new URL("../../../docs/weekly-import-preview.png", import.meta.url).pathname;

const admin = useSignedInPage(ADMIN, { height: 900 });

beforeAll(async () => {
  for (const name of SCHOOLS) {
    const res = await admin.context.request.post("/api/schools", {
      headers: { Authorization: `Bearer ${admin.token}` },
      data: { name, district: "Harbour" },
    });
    // 409: another run against the same database made it already.
    expect([201, 409], `creating ${name}`).toContain(res.status());
  }
});

const section = (page: Page): Locator => page.getByRole("region", { name: "Cohort & Weekly Data Management", exact: true });

async function openSettings(page: Page): Promise<void> {
  await page.goto("/admin/settings");
  await expectTitle(page, "Admin Settings");
  await visible(section(page).getByRole("table", { name: "Cohorts" }));
  await settled(page);
}

async function openImport(page: Page): Promise<Locator> {
  await section(page).getByRole("button", { name: "Import Weekly Data for Cohort" }).click();
  return visible(page.getByRole("dialog", { name: "Import Weekly Cohort Data" }));
}

/** Chooses the three files; with `drop`, the progress report is dropped on its area instead. */
async function chooseFiles(page: Page, dialog: Locator, drop = false): Promise<void> {
  for (const [label, path] of Object.entries(FILES)) {
    if (drop && label === "Progress report") {
      const file = { name: basename(path), text: readFileSync(path, "utf8") };
      const dataTransfer = await page.evaluateHandle(({ name, text }) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([text], name, { type: "text/csv" }));
        return transfer;
      }, file);
      await dialog.getByTestId(`drop-${label}`).dispatchEvent("drop", { dataTransfer });
    } else {
      await dialog.getByLabel(label).setInputFiles(path);
    }
  }
  await expect.poll(() => dialog.getByTestId("chosen-file").allTextContents()).toEqual([
    expect.stringMatching(/^meeting-attendance\.csv \(\d+\.\d KB\)$/),
    expect.stringMatching(/^progress\.csv \(\d+\.\d KB\)$/),
    expect.stringMatching(/^reflections\.csv \(\d+\.\d KB\)$/),
  ]);
}

async function stat(dialog: Locator, label: string): Promise<number> {
  return Number(await dialog.getByTestId(`stat-${label}`).textContent());
}

async function preview(page: Page, dialog: Locator): Promise<void> {
  await dialog.getByRole("button", { name: "Preview Import" }).click();
  await visible(dialog.getByRole("heading", { name: "Preview Upload Summary" }));
  await settled(page);
}

async function commit(page: Page, dialog: Locator): Promise<string> {
  await dialog.getByRole("button", { name: "Confirm & Save Data" }).click();
  await expect.poll(() => dialog.count(), { timeout: 30_000 }).toBe(0);
  const banner = section(page).getByTestId("success-banner");
  await visible(banner);
  return (await banner.textContent()) ?? "";
}

const cohortRow = (page: Page) => section(page).getByRole("table", { name: "Cohorts" }).getByRole("row").filter({ hasText: COHORT });
const recentImports = (page: Page) => section(page).getByRole("table", { name: "Recent imports" });

describe("weekly import", () => {
  test("an admin imports the sample week as a new cohort: preview of 40 students, then commit", async () => {
    const { page } = admin;
    await openSettings(page);
    const dialog = await openImport(page);
    await dialog.getByLabel("Cohort name").fill(COHORT);
    await dialog.getByLabel("Program type").selectOption("Internship (6 week)");
    await dialog.getByLabel("Start date").fill("2026-06-29");
    await dialog.getByLabel("End date").fill("2026-08-10");
    await dialog.getByLabel("Total expected hours").fill("120");
    await visible(dialog.getByText("Week 1 to 6 of this cohort"));
    await dialog.getByLabel("Week number").fill("3");
    await chooseFiles(page, dialog);
    await settled(page);
    await dialog.screenshot({ path: `${SHOTS}import-form.png`, animations: "disabled" });
    await expectNoSeriousA11yViolations(page, "the import form");

    await preview(page, dialog);
    expect(await stat(dialog, "Students in files")).toBe(40);
    expect(await stat(dialog, "New students")).toBe(40);
    expect(await stat(dialog, "Attendance created")).toBe(80);
    expect(await stat(dialog, "Attendance updated")).toBe(0);
    expect(await stat(dialog, "Weekly data created")).toBe(40);
    await visible(dialog.getByText("Showing 1–40 of 40 students"));
    const dmitri = dialog.getByTestId("preview-student").filter({ hasText: "Dmitri Silva" });
    await visible(dmitri.getByText("New", { exact: true }));
    expect(await dmitri.textContent()).toContain("2026-07-16 · Late · Advisor · created");
    await dialog.screenshot({ path: `${SHOTS}import-preview.png`, animations: "disabled" });
    mkdirSync(new URL("../../../docs/", import.meta.url).pathname, { recursive: true });
    copyFileSync(`${SHOTS}import-preview.png`, README_SHOT);
    await expectNoSeriousA11yViolations(page, "the import preview");

    const text = await commit(page, dialog);
    expect(text).toContain("Students in files: 40");
    expect(text).toContain("Attendance created: 80");
    expect(text).toContain("Weekly data created: 40");
    const row = await visible(cohortRow(page));
    expect((await row.getByRole("cell").allTextContents()).slice(0, 7)).toEqual([
      COHORT,
      "Internship (6 week)",
      "2026-06-29",
      "2026-08-10",
      "120",
      "40",
      "6",
    ]);
  });

  test("the dashboard shows the new cohort's students", async () => {
    const { page } = admin;
    await page.goto("/dashboard");
    await expectTitle(page, "Admin Dashboard");
    await settled(page);
    await chooseOption(page, "Cohort", COHORT);
    await eventually(() => studentsHeadingCount(page), 40, "Students (40) for the imported cohort");
    await visible(page.getByRole("table", { name: "Attendance by Week" }));
  });

  test("importing the same files into the existing cohort changes nothing", async () => {
    const { page } = admin;
    await openSettings(page);
    const dialog = await openImport(page);
    await dialog.getByLabel("Existing cohort").check();
    await dialog.getByRole("combobox", { name: "Cohort", exact: true }).selectOption({ label: COHORT });
    await dialog.getByLabel("Week number").fill("3");
    await chooseFiles(page, dialog, true);
    // A slow line (16 KB/s up) so the upload lasts a second or so: long enough to be seen.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 16 * 1024 });
    await dialog.getByRole("button", { name: "Preview Import" }).click();
    await visible(dialog.getByRole("button", { name: "Processing..." }));
    await visible(dialog.getByTestId("import-progress").getByRole("status").filter({ hasText: /^Uploading files… \d+%$/ }));
    await dialog.getByTestId("import-progress").screenshot({ path: `${SHOTS}import-progress.png`, animations: "disabled" });
    await visible(dialog.getByRole("heading", { name: "Preview Upload Summary" }));
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await cdp.detach();
    await settled(page);
    expect(await stat(dialog, "Students in files")).toBe(40);
    for (const label of ["New students", "Attendance created", "Attendance updated", "Weekly data created", "Weekly data updated"]) {
      expect(await stat(dialog, label), label).toBe(0);
    }
    await dialog.getByLabel("Only changes").check();
    await visible(dialog.getByText("No students match these filters."));
    const text = await commit(page, dialog);
    expect(text).toContain("Attendance created: 0");
    expect(text).toContain("Attendance updated: 0");
  });

  test("a report in the wrong slot is refused with the server's message, and nothing is written", async () => {
    const { page } = admin;
    const dialog = await openImport(page);
    await dialog.getByLabel("Existing cohort").check();
    await dialog.getByRole("combobox", { name: "Cohort", exact: true }).selectOption({ label: COHORT });
    await dialog.getByLabel("Week number").fill("3");
    await dialog.getByLabel("Meeting attendance report").setInputFiles(FILES["Progress report"]);
    await dialog.getByLabel("Progress report").setInputFiles(FILES["Progress report"]);
    await dialog.getByLabel("Reflection report").setInputFiles(FILES["Reflection report"]);
    await dialog.getByRole("button", { name: "Preview Import" }).click();
    const alert = await visible(dialog.getByRole("alert"));
    await dialog.screenshot({ path: `${SHOTS}import-error.png`, animations: "disabled" });
    expect(await alert.textContent()).toMatch(/^Preview generation failed: progress\.csv: .*"Meeting Date"/);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => recentImports(page).getByRole("row").filter({ hasText: COHORT }).count()).toBe(2);
  });

  test("both imports are undone from Recent imports, newest first, and the cohort is gone", async () => {
    const { page } = admin;
    const table = await visible(recentImports(page));
    const rows = table.getByRole("row").filter({ hasText: COHORT });
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain("40 studentsAttendance: 0 created, 0 updatedWeekly data: 0 created, 0 updated");
    expect(await rows.nth(1).textContent()).toContain("40 studentsAttendance: 80 created, 0 updatedWeekly data: 40 created, 0 updated");
    expect(await rows.nth(0).getByText(/\.csv$/).allTextContents()).toEqual(["meeting-attendance.csv", "progress.csv", "reflections.csv"]);
    // Only the newest import of the cohort offers Undo.
    expect(await rows.nth(0).getByRole("button", { name: /^Undo import/ }).count()).toBe(1);
    expect(await rows.nth(1).getByRole("button", { name: /^Undo import/ }).count()).toBe(0);
    await table.scrollIntoViewIfNeeded();
    await expectNoSeriousA11yViolations(page, "Admin Settings with recent imports");
    await section(page).screenshot({ path: `${SHOTS}import-recent.png`, animations: "disabled" });

    await rows.nth(0).getByRole("button", { name: `Undo import of ${COHORT} week 3` }).click();
    let dialog = await visible(page.getByRole("dialog", { name: "Undo import" }));
    expect(await dialog.textContent()).toContain(`${COHORT}, week 3`);
    expect(await dialog.textContent()).not.toContain("the cohort itself");
    await dialog.getByRole("button", { name: "Undo import" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await visible(recentImports(page).getByText("Undone").first());

    const first = rows.filter({ hasText: "Attendance: 80 created" });
    await first.getByRole("button", { name: `Undo import of ${COHORT} week 3` }).click();
    dialog = await visible(page.getByRole("dialog", { name: "Undo import" }));
    expect(await dialog.textContent()).toContain(`the cohort itself (${COHORT})`);
    await dialog.screenshot({ path: `${SHOTS}import-undo-dialog.png`, animations: "disabled" });
    await dialog.getByRole("button", { name: "Undo import" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => cohortRow(page).count()).toBe(0);
  });
});

test("on a 390 px phone the import form fills the screen and nothing scrolls sideways", async () => {
  const phone = await (await newContext(admin.browser(), { storageState: admin.session, width: 390, height: 844 })).newPage();
  await openSettings(phone);
  const dialog = await openImport(phone);
  await settled(phone);
  await phone.screenshot({ path: `${SHOTS}import-form-phone.png`, animations: "disabled" });
  expect(await horizontalOverflow(phone)).toBe(0);
  const box = await dialog.boundingBox();
  expect(box?.width).toBeLessThanOrEqual(390);
  await expect.poll(() => dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
  await phone.context().close();
});
