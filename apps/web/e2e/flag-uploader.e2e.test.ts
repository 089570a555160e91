import { mkdirSync, readFileSync } from "node:fs";
import { FLAG_FILE_LABELS, FLAG_UPLOAD_MESSAGES } from "@tally/contract";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { expectNoSeriousA11yViolations, expectTitle, newContext, settled, visible } from "./browser";
import { openSignedIn, useSignedInPage, WEEK3_FIXTURES } from "./journey-setup";
import { chooseOption, eventually, studentsHeadingCount } from "./dashboards-page";
import { ADMIN, SUPER_ADMIN } from "./demo-accounts";

// A super admin runs the sample week through the Flag Uploader (process, verify, import) and
// finds the flags in a student's Flags tab; an admin is refused the page. The sample's Benefit
// Assignment IDs clash with the demo students' own, so the conflict warning is seen before and
// after the import, and its link is followed to the holder's Overview.
//
// The cohort is this file's own, and so are its students: the sample files are read with their
// own e-mail domain, so the weekly-import journey's students (same names) are never touched.
// GET /cohorts/active lists cohorts near the server's real today, so the cohort is dated around
// today and the files' session dates are moved into its week 3.
const COHORT = "Flags Journey Week 3";
const WEEK = 3;

/** The sample's dates, in week 3 of a cohort starting 2026-06-29. */
const SAMPLE_START = "2026-06-29";
const SCHOOLS = ["Riverside Academy", "Eastwood Secondary", "Northside High School"];
const DMITRI_FLAGS = [
  "Behind on progress (5% vs 50% expected)",
  "Low hours (1.5 of 20 expected)",
  "Low wellbeing (1/5)",
  "Absent from 1 session(s)",
];
/** Looked at after each run (not compared); the README's copy is docs/flag-uploader.png. */
const SHOTS = new URL("../../../.tmp/screens/", import.meta.url).pathname;
const README_SHOT = new URL("../../../docs/flag-uploader.png", import.meta.url).pathname;

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const todayMs = Date.parse(`${isoDay(Date.now())}T00:00:00Z`);
/**
 * 17 days in: week 3 (days 15–21 count as week 3), with a day's slack either side for a browser
 * whose calendar day differs from the server's.
 */
const START = isoDay(todayMs - 17 * DAY);
const END = isoDay(todayMs - 17 * DAY + 42 * DAY);
const shift = Date.parse(`${START}T00:00:00Z`) - Date.parse(`${SAMPLE_START}T00:00:00Z`);

/**
 * A sample file with every date moved by the same number of days as the cohort start, and the
 * students' e-mail domain made this file's own.
 */
function dated(name: string): { name: string; mimeType: string; buffer: Buffer } {
  const text = readFileSync(`${WEEK3_FIXTURES}${name}`, "utf8")
    .replace(/\b2026-\d{2}-\d{2}\b/g, (d) => isoDay(Date.parse(`${d}T00:00:00Z`) + shift))
    .replaceAll("@students.example.org", "@flags-journey.example.org");
  return { name, mimeType: "text/csv", buffer: Buffer.from(text) };
}

const superAdmin = useSignedInPage(SUPER_ADMIN, { height: 900 });

/**
 * Kwame Patel's ID in the CRM report. The demo data's students hold BA-1000NN (NN their id), so
 * the sample's IDs clash with theirs: the warning a coordinator meets with real, older records.
 */
const HELD_ID = "BA-100037";
/** The students of the sample: 40, one of them (Dmitri Silva, BA-100000) with an ID nobody holds. */
const SAMPLE_STUDENTS = 40;

async function commitFixtureWeek(context: BrowserContext, token: string): Promise<void> {
  const headers = { Authorization: `Bearer ${token}` };
  for (const name of SCHOOLS) {
    const res = await context.request.post("/api/schools", { headers, data: { name } });
    // 409: another journey made it already.
    expect([201, 409], `creating ${name}: ${await res.text()}`).toContain(res.status());
  }
  const res = await context.request.post("/api/flag-upload/commit-weekly-data", {
    headers,
    multipart: {
      cohortName: COHORT,
      programType: "Internship (6 week)",
      startDate: START,
      endDate: END,
      totalExpectedHours: "120",
      weekNumber: String(WEEK),
      attendanceReport: dated("meeting-attendance.csv"),
      progressReport: dated("progress.csv"),
      reflectionReport: dated("reflections.csv"),
    },
    timeout: 60_000,
  });
  expect(res.status(), `committing the fixture week: ${await res.text()}`).toBe(200);
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  await commitFixtureWeek(superAdmin.context, superAdmin.token);
});

/** The warning's line about HELD_ID. */
const heldLine = (page: Page): Locator => page.getByTestId("benefit-id-conflicts").getByRole("listitem").filter({ hasText: `${HELD_ID} is held by` });

/** Chooses the three dated sample files in the upload panel. */
async function attachSample(p: Locator): Promise<void> {
  await p.getByLabel(FLAG_FILE_LABELS.progressReport).setInputFiles(dated("progress.csv"));
  await p.getByLabel(FLAG_FILE_LABELS.reflectionReport).setInputFiles(dated("reflections.csv"));
  await p.getByLabel(FLAG_FILE_LABELS.attendanceReport).setInputFiles(dated("crm-attendance.csv"));
  await expect.poll(() => p.getByTestId("chosen-file").allTextContents()).toEqual(["progress.csv", "reflections.csv", "crm-attendance.csv"]);
}

const panel = (page: Page): Locator => page.getByRole("region", { name: `Reports for ${COHORT}, Week ${WEEK}` });
const flagTable = (page: Page): Locator => page.getByRole("table", { name: "Calculated flags" });
/** The flag chips of each shown row, in order ([] for "No flags"). */
const rowFlags = (table: Locator): Promise<string[][]> =>
  table.locator("tbody tr td:nth-child(4)").evaluateAll((cells) => cells.map((c) => [...c.querySelectorAll("li")].map((li) => li.textContent ?? "")));

describe("the flag uploader", () => {
  test("an admin opening /admin/flag-uploader is refused with the spec's text", async () => {
    const { context, page } = await openSignedIn(superAdmin.browser(), ADMIN);
    try {
      await page.goto("/admin/flag-uploader");
      await expectTitle(page, FLAG_UPLOAD_MESSAGES.accessDeniedTitle);
      await visible(page.getByText(FLAG_UPLOAD_MESSAGES.accessDenied, { exact: true }));
      expect(new URL(page.url()).pathname).toBe("/admin/flag-uploader");
      await expect.poll(() => page.getByLabel("Cohort", { exact: true }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  test("a super admin chooses the cohort; the week defaults to the cohort's current week", async () => {
    const { page } = superAdmin;
    await page.goto("/admin/flag-uploader");
    await expectTitle(page, "Flag Uploader");
    await visible(page.getByText(FLAG_UPLOAD_MESSAGES.selectCohort, { exact: true }));
    await page.getByLabel("Cohort", { exact: true }).selectOption({ label: COHORT });
    const week = page.getByLabel("Week Number");
    await visible(week);
    expect(await week.locator("option").allTextContents()).toEqual(["Week 1", "Week 2", "Week 3", "Week 4", "Week 5", "Week 6"]);
    expect(await week.inputValue()).toBe(String(WEEK));
    await visible(panel(page));
    await expectNoSeriousA11yViolations(page, "the upload panel");
  });

  test("a file that is not a CSV is refused; Process asks for all three files", async () => {
    const { page } = superAdmin;
    const p = panel(page);
    await p.getByLabel(FLAG_FILE_LABELS.progressReport).setInputFiles({
      name: "progress.xlsx",
      mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      buffer: Buffer.from("not a csv"),
    });
    await visible(p.getByText(FLAG_UPLOAD_MESSAGES.invalidFileType, { exact: true }));
    await p.getByRole("button", { name: "Process" }).click();
    await visible(p.getByText(FLAG_UPLOAD_MESSAGES.allFilesRequired, { exact: true }));
  });

  test("processing the sample week lists 40 students with their calculated flags", async () => {
    const { page } = superAdmin;
    const p = panel(page);
    await attachSample(p);
    await p.getByRole("button", { name: "Process" }).click();
    await visible(p.getByRole("heading", { name: "Verify calculated flags" }));
    await settled(page);
    await visible(page.getByText("40 of 40 students checked for import", { exact: true }));

    const dmitri = flagTable(page).getByRole("row").filter({ hasText: "Dmitri Silva" });
    expect(await dmitri.count()).toBe(1);
    const cells = await dmitri.getByRole("cell").allTextContents();
    // No Benefit Assignment ID is stored on him yet (the import stores it): matched by e-mail.
    expect([cells[1], cells[2], cells[4]]).toEqual(["Dmitri Silva", "BA-100000", "E-mail"]);
    // One chip per flag, not a sentence.
    expect(await dmitri.getByRole("list", { name: "4 flags" }).getByRole("listitem").allTextContents()).toEqual(DMITRI_FLAGS);

    // An ID another student holds is a warning naming the ID and both students, before anything is imported.
    const warning = await visible(page.getByTestId("benefit-id-conflicts"));
    expect(await warning.textContent()).toMatch(/^\d+ Benefit Assignment IDs? already held by another student/);
    const showAll = warning.getByRole("button", { name: /^Show all/ });
    const folded = (await showAll.count()) > 0;
    if (folded) await showAll.click();
    expect(await heldLine(page).textContent()).toMatch(new RegExp(`^${HELD_ID} is held by .+; the CRM report gives it to Kwame Patel\\.$`));
    const links = heldLine(page).getByRole("link");
    expect(await links.count()).toBe(2);
    expect(await links.nth(0).getAttribute("href")).toMatch(/^\/dashboard\?student=\d+$/);
    if (folded) await warning.getByRole("button", { name: /^Show the first/ }).click();

    // The count and Import stay in view at the bottom of the window while the table scrolls.
    const footer = page.getByTestId("verification-footer");
    const windowHeight = page.viewportSize()?.height ?? 0;
    const bottomOf = async () => {
      const box = await footer.boundingBox();
      return Math.round((box?.y ?? 0) + (box?.height ?? 0));
    };
    const importButton = footer.getByRole("button", { name: "Import 40 students" });
    expect(await importButton.isVisible()).toBe(true);
    // Nothing floats over it (the connection button sits in the window's corner).
    const covering = await importButton.evaluate((el) => {
      const r = el.getBoundingClientRect();
      // Its left end, middle and right end, clear of the rounded corners.
      const middle = (r.top + r.bottom) / 2;
      return [[r.left + 6, middle], [(r.left + r.right) / 2, middle], [r.right - 6, middle]].flatMap(([x, y]) => {
        const top = document.elementFromPoint(x!, y!);
        return el.contains(top) ? [] : [`${top?.tagName}.${top?.className} at ${x},${y} (button ${JSON.stringify(r)})`];
      });
    });
    expect(covering).toEqual([]);
    expect(await bottomOf()).toBe(windowHeight);
    await page.mouse.wheel(0, 600);
    await expect.poll(bottomOf).toBe(windowHeight);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectNoSeriousA11yViolations(page, "the verification step");

    await page.evaluate(async () => {
      await document.fonts.ready;
    });
    await page.screenshot({ path: `${SHOTS}flag-uploader-verify.png`, fullPage: true, animations: "disabled" });
    // The README's picture starts at the step's heading: the warning, the chips and the footer in one window.
    await p.getByRole("heading", { name: "Verify calculated flags" }).evaluate((el) => el.scrollIntoView());
    await page.screenshot({ path: README_SHOT, animations: "disabled" });
    await page.evaluate(() => window.scrollTo(0, 0));
  });

  test("sorting by flag count and 'Only flagged' reorder and narrow the table", async () => {
    const { page } = superAdmin;
    const table = flagTable(page);
    await table.getByRole("button", { name: /Calculated flags/ }).click();
    const flagCounts = async () => (await rowFlags(table)).map((chips) => chips.length);
    const counts = await flagCounts();
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const flagged = counts.filter((n) => n > 0).length;
    await page.getByRole("switch", { name: "Only flagged" }).click({ force: true });
    await expect.poll(async () => (await flagCounts()).length).toBe(flagged);
    await page.getByRole("switch", { name: "Only flagged" }).click({ force: true });
    await table.getByRole("button", { name: /Calculated flags/ }).click();
    await table.getByRole("button", { name: /Calculated flags/ }).click();
  });

  test("Import writes the flags: 'Flags imported successfully!'", async () => {
    const { page } = superAdmin;
    await page.getByRole("button", { name: "Import 40 students" }).click();
    const success = await visible(page.getByTestId("flag-import-success"));
    expect(await success.textContent()).toContain(FLAG_UPLOAD_MESSAGES.imported);
    expect(await success.textContent()).toContain("Students imported: 40");
    // The conflicts are a warning of their own after the import too, never inside the green box.
    expect(await success.textContent()).not.toMatch(/held|BA-/);
    expect(await success.locator('[data-testid="benefit-id-conflicts"]').count()).toBe(0);
    const warning = await visible(page.getByTestId("benefit-id-conflicts"));
    expect(await warning.textContent()).toContain("was imported without one");
    // Every student either got the CRM's ID or is named in the warning.
    const stored = Number(/Benefit Assignment IDs stored: (\d+)/.exec((await success.textContent()) ?? "")?.[1]);
    const conflicts = Number(/^(\d+) Benefit Assignment ID/.exec((await warning.textContent()) ?? "")?.[1]);
    expect(stored + conflicts).toBe(SAMPLE_STUDENTS);
    expect(conflicts).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}flag-uploader-success.png`, fullPage: true, animations: "disabled" });
  });

  test("the conflict's link opens the holder on the dashboard, the ID on their Overview", async () => {
    const { page } = superAdmin;
    const showAll = page.getByTestId("benefit-id-conflicts").getByRole("button", { name: /^Show all/ });
    if ((await showAll.count()) > 0) await showAll.click();
    const link = heldLine(page).getByRole("link").first();
    const holder = await link.textContent();
    await page.goto((await link.getAttribute("href")) ?? "/");
    const dialog = page.getByRole("dialog", { name: holder ?? "" });
    await visible(dialog);
    await visible(dialog.getByText("Benefit Assignment ID", { exact: true }));
    await visible(dialog.getByText(HELD_ID, { exact: true }));
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
  });

  test("the dashboard shows Dmitri Silva's week 3 flags in the Flags tab", async () => {
    const { page } = superAdmin;
    await page.goto(SUPER_ADMIN.home);
    await expectTitle(page, SUPER_ADMIN.title);
    await settled(page);
    await chooseOption(page, "Cohort", COHORT);
    await eventually(() => studentsHeadingCount(page), 40, "Students (40) for the journey's cohort");
    await page.getByRole("searchbox", { name: "Search" }).fill("Dmitri Silva");
    await eventually(() => studentsHeadingCount(page), 1, "Students (1) for the search");
    await page.getByRole("button", { name: "View Details for Dmitri Silva", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Dmitri Silva" });
    await visible(dialog);
    await dialog.getByRole("tab", { name: "Flags", exact: true }).click();
    const week = dialog.getByRole("tabpanel", { name: "Flags" }).getByRole("article", { name: `Week ${WEEK}` });
    await visible(week);
    await expect.poll(() => week.getByRole("listitem").allTextContents()).toEqual(DMITRI_FLAGS);
    await page.screenshot({ path: `${SHOTS}flag-uploader-flags-tab.png`, animations: "disabled" });
  });

  test("on a phone the verification step fits the width (the table scrolls in its own box)", async () => {
    const context = await newContext(superAdmin.browser(), { storageState: superAdmin.session, width: 390, height: 844 });
    try {
      const page = await context.newPage();
      await page.goto("/admin/flag-uploader");
      await expectTitle(page, "Flag Uploader");
      await page.getByLabel("Cohort", { exact: true }).selectOption({ label: COHORT });
      await page.getByLabel("Week Number").selectOption(String(WEEK));
      const p = panel(page);
      await attachSample(p);
      await p.getByRole("button", { name: "Process" }).click();
      await visible(p.getByRole("heading", { name: "Verify calculated flags" }));
      await settled(page);
      await page.screenshot({ path: `${SHOTS}flag-uploader-verify-390.png`, animations: "disabled" });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, "the page scrolls sideways").toBeLessThanOrEqual(0);
    } finally {
      await context.close();
    }
  });
});
