import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { expectNoSeriousA11yViolations, expectTitle, newContext, settled, visible } from "./browser";
import { useSignedInPage, WEEK3_FIXTURES } from "./journey-setup";
import { chooseOption, eventually, horizontalOverflow, studentsHeadingCount } from "./dashboards-page";
import { ADMIN } from "./demo-accounts";

// An admin imports a week of the three reports as a new cohort, sees it on the dashboard,
// previews the same files again (they change nothing: Confirm stays disabled), imports them
// into the wrong week after the extra confirmation, and undoes both imports, newest first.
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
    // The form opens on Existing cohort; New cohort is one click away.
    expect(await dialog.getByLabel("Existing cohort").isChecked()).toBe(true);
    await dialog.getByLabel("New cohort").check();
    await dialog.getByLabel("Cohort name").fill(COHORT);
    await dialog.getByLabel("Start date").fill("2026-06-29");
    // The program type fills in the end date and the expected hours.
    await dialog.getByLabel("Program type").selectOption("Internship (6 week)");
    expect(await dialog.getByLabel("End date").inputValue()).toBe("2026-08-10");
    expect(await dialog.getByLabel("Total expected hours").inputValue()).toBe("120");
    await visible(dialog.getByText("Week 1 to 6 of this cohort"));
    await dialog.getByLabel("Week number").fill("3");
    await visible(dialog.getByTestId("import-week-label").filter({ hasText: "Week 3 · 13–19 Jul" }));
    await chooseFiles(page, dialog);
    await settled(page);
    await dialog.screenshot({ path: `${SHOTS}import-form.png`, animations: "disabled" });
    await expectNoSeriousA11yViolations(page, "the import form");

    // An 800 px-high window: the footer keeps Confirm in view above 40 students.
    await page.setViewportSize({ width: 1280, height: 800 });
    await preview(page, dialog);
    expect(await stat(dialog, "Students in files")).toBe(40);
    expect(await stat(dialog, "New students")).toBe(40);
    expect(await stat(dialog, "Attendance created")).toBe(80);
    expect(await stat(dialog, "Attendance updated")).toBe(0);
    expect(await stat(dialog, "Weekly data created")).toBe(40);
    await visible(dialog.getByText("Showing 1–40 of 40 students"));
    const dmitri = dialog.getByTestId("preview-student").filter({ hasText: "Dmitri Silva" });
    await visible(dmitri.getByText("New", { exact: true }));
    expect(await dmitri.getByTestId("preview-student-place").textContent()).toBe("Riverside Academy · Team B2");
    expect(await dmitri.textContent()).toContain("2026-07-16 · Late · Advisor · created");
    const confirm = dialog.getByRole("button", { name: "Confirm & Save Data" });
    const box = await confirm.boundingBox();
    expect(box && box.y + box.height, "Confirm within the 800 px window").toBeLessThanOrEqual(800);
    await dialog.screenshot({ path: `${SHOTS}import-preview.png`, animations: "disabled" });
    mkdirSync(new URL("../../../docs/", import.meta.url).pathname, { recursive: true });
    copyFileSync(`${SHOTS}import-preview.png`, README_SHOT);
    await expectNoSeriousA11yViolations(page, "the import preview");

    const text = await commit(page, dialog);
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(text).toContain(
      `Week 3 of ${COHORT} imported: 40 students (40 new), 80 attendance records created, 0 updated, 40 weekly records created, 0 updated. No row was skipped.`,
    );
    const link = section(page).getByRole("link", { name: "Open the dashboard for this cohort" });
    expect(await link.getAttribute("href")).toMatch(/^\/dashboard\?cohort=\d+$/);
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

  test("the same files again change nothing: the preview says who imported the week, and Confirm is disabled", async () => {
    const { page } = admin;
    await openSettings(page);
    const dialog = await openImport(page);
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
    const unchanged = await visible(dialog.getByTestId("import-unchanged"));
    expect(await unchanged.textContent()).toMatch(
      new RegExp(`Week 3 of ${COHORT} was imported on \\d{1,2} [A-Z][a-z]{2} \\d{4} by ${ADMIN.username}; these files change nothing\\.`),
    );
    expect(await dialog.getByRole("button", { name: "Confirm & Save Data" }).isDisabled()).toBe(true);
    await dialog.screenshot({ path: `${SHOTS}import-unchanged.png`, animations: "disabled" });
    await dialog.getByRole("button", { name: "Back to Edit Form" }).click();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
  });

  test("the wrong week is said once with a one-click fix, and committing into it asks once more", async () => {
    const { page } = admin;
    const dialog = await openImport(page);
    await dialog.getByRole("combobox", { name: "Cohort", exact: true }).selectOption({ label: COHORT });
    await dialog.getByLabel("Week number").fill("2");
    await chooseFiles(page, dialog);
    await preview(page, dialog);
    const mismatch = await visible(dialog.getByTestId("week-mismatch"));
    expect(await mismatch.textContent()).toContain("All 80 meeting dates fall in week 3 (13–19 Jul), not week 2 (6–12 Jul). Import as week 3?");
    await dialog.screenshot({ path: `${SHOTS}import-wrong-week.png`, animations: "disabled" });
    // One click previews week 3 instead: already imported, so nothing to change.
    await mismatch.getByRole("button", { name: "Import as week 3" }).click();
    await visible(dialog.getByTestId("import-unchanged"));
    expect(await dialog.getByTestId("preview-week").textContent()).toBe("Week 3 · 13–19 Jul");

    // Into week 2 after all: Confirm asks once more before anything is written.
    await dialog.getByRole("button", { name: "Back to Edit Form" }).click();
    await dialog.getByLabel("Week number").fill("2");
    await preview(page, dialog);
    await dialog.getByRole("button", { name: "Confirm & Save Data" }).click();
    const ask = await visible(dialog.getByTestId("week-confirm"));
    expect(await ask.textContent()).toContain("80 of 80 meeting dates are not in week 2 (6–12 Jul). Import them as week 2 anyway?");
    await expect.poll(() => recentImports(page).getByRole("row").filter({ hasText: COHORT }).count()).toBe(1);
    await ask.getByRole("button", { name: "Yes, import as week 2" }).click();
    await expect.poll(() => dialog.count(), { timeout: 30_000 }).toBe(0);
    expect(await section(page).getByTestId("success-banner").textContent()).toContain(`Week 2 of ${COHORT} imported`);
  });

  test("a report in the wrong slot is recognised by its header row, refused with the server's message if sent, and nothing is written", async () => {
    const { page } = admin;
    const dialog = await openImport(page);
    await dialog.getByRole("combobox", { name: "Cohort", exact: true }).selectOption({ label: COHORT });
    await dialog.getByLabel("Week number").fill("3");
    await dialog.getByLabel("Meeting attendance report").setInputFiles(FILES["Progress report"]);
    expect(await visible(dialog.getByTestId("misplaced-attendanceReport")).then((n) => n.textContent())).toContain(
      "This looks like the progress report, not the meeting attendance report.",
    );
    await dialog.getByLabel("Progress report").setInputFiles(FILES["Progress report"]);
    await dialog.getByLabel("Reflection report").setInputFiles(FILES["Reflection report"]);
    await dialog.getByRole("button", { name: "Preview Import" }).click();
    const alert = await visible(dialog.getByTestId("import-error"));
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
    expect(await rows.nth(0).textContent()).toContain("40 studentsAttendance: 0 created, 0 updatedWeekly data: 40 created, 0 updated");
    expect(await rows.nth(1).textContent()).toContain("40 students (40 new)Attendance: 80 created, 0 updatedWeekly data: 40 created, 0 updated");
    await visible(section(page).getByText("Only the newest import of a cohort can be undone", { exact: false }));
    expect(await rows.nth(0).getByText(/\.csv$/).allTextContents()).toEqual(["meeting-attendance.csv", "progress.csv", "reflections.csv"]);
    // Only the newest import of the cohort offers Undo.
    expect(await rows.nth(0).getByRole("button", { name: /^Undo import/ }).count()).toBe(1);
    expect(await rows.nth(1).getByRole("button", { name: /^Undo import/ }).count()).toBe(0);
    await table.scrollIntoViewIfNeeded();
    await expectNoSeriousA11yViolations(page, "Admin Settings with recent imports");
    await section(page).screenshot({ path: `${SHOTS}import-recent.png`, animations: "disabled" });

    await rows.nth(0).getByRole("button", { name: `Undo import of ${COHORT} week 2` }).click();
    let dialog = await visible(page.getByRole("dialog", { name: "Undo import" }));
    expect(await dialog.textContent()).toContain(`${COHORT}, week 2`);
    expect(await dialog.textContent()).not.toContain("the cohort itself");
    await dialog.getByRole("button", { name: "Undo import" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await visible(recentImports(page).getByText("Undone").first());
    // In words, never an internal id.
    await visible(section(page).getByText(`Undid the week 2 import of ${COHORT}: removed 40 weekly records.`));

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
