import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FeatureSettings,
  fileNamePart,
  REPORT_FILES,
  REPORT_MESSAGES,
  type SaveFeatureSettingsRequest,
  STUDENTS_CSV_COLUMNS,
} from "@tally/contract";
import type { Download, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { animationsSettled, expectNoSeriousA11yViolations, expectTitle, newContext, nextMailTo, sentMail, settled, visible } from "./browser";
import { openSignedIn, useSignedInPage } from "./journey-setup";
import { type Summary, apiAs, chooseOption, horizontalOverflow, statValue } from "./dashboards-page";
import { ADMIN, SCHOOL } from "./demo-accounts";

// The admin exports one school's report three ways (PDF, CSV, e-mail with the PDF attached),
// through the dashboard's Export menu as a person does; a school user whose school has export
// switched off has no Export menu and is refused by the server too. The file switches export
// off itself and puts the feature settings back as it found them.
const SCHOOL_NAME = "Northgate High School";
const SCHOOL_ID = 1;
const RECIPIENT = "funder@reports.example";
/** Building a PDF may take a while on a slow machine; the app itself gives up after 30 s. */
const DOWNLOAD_TIMEOUT_MS = 35_000;

const admin = useSignedInPage(ADMIN);
let api: ReturnType<typeof apiAs>;
let savedFeatures: FeatureSettings | undefined;
let downloads: string;

beforeAll(() => {
  api = apiAs(admin.context, admin.token);
  downloads = mkdtempSync(join(tmpdir(), "tally-reports-"));
});

// Before the browser closes: the restore goes through the admin's page.
afterAll(async () => {
  if (savedFeatures) await saveFeatures(restorable(savedFeatures)).catch(() => undefined);
  if (downloads) rmSync(downloads, { recursive: true, force: true });
});

async function saveFeatures(body: SaveFeatureSettingsRequest): Promise<void> {
  const { page } = admin;
  const res = await page.context().request.post("/api/settings/features", {
    headers: { Authorization: `Bearer ${admin.token}` },
    data: body,
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** The settings as read, in the shape the save takes (every school row with both toggles). */
function restorable(settings: FeatureSettings): SaveFeatureSettingsRequest {
  const rows = Object.entries(settings.schoolSettings).map(([id, row]) => [
    id,
    {
      enableExport: row.enableExport ?? settings.enableExport,
      enableStudentEditing: row.enableStudentEditing ?? settings.enableStudentEditing,
    },
  ]);
  return { ...settings, schoolSettings: Object.fromEntries(rows) };
}

function exportButton(p: Page): Locator {
  return p.getByRole("button", { name: "Export", exact: true });
}

/** Opens the Export menu with the keyboard, as a keyboard user does; returns the menu. */
async function openExportMenu(p: Page): Promise<Locator> {
  const button = await visible(exportButton(p));
  await button.focus();
  await p.keyboard.press("Enter");
  const menu = await visible(p.getByRole("menu"));
  await expect.poll(() => button.getAttribute("aria-expanded")).toBe("true");
  return menu;
}

function focusedText(p: Page): Promise<string> {
  return p.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
}

/**
 * Picks a menu item and waits for the download it starts: with the mouse, or with the keyboard
 * only (arrows to the item, Enter).
 */
async function downloadVia(p: Page, item: string, by: "mouse" | "keyboard"): Promise<{ download: Download; path: string }> {
  const menu = await openExportMenu(p);
  const pick = async () => {
    if (by === "mouse") return menu.getByRole("menuitem", { name: item, exact: true }).click();
    for (let i = 0; i < 4 && (await focusedText(p)) !== item; i++) await p.keyboard.press("ArrowDown");
    expect(await focusedText(p)).toBe(item);
    await p.keyboard.press("Enter");
  };
  const [download] = await Promise.all([p.waitForEvent("download", { timeout: DOWNLOAD_TIMEOUT_MS }), pick()]);
  const path = join(downloads, download.suggestedFilename());
  await download.saveAs(path);
  return { download, path };
}

/** Cells of one CSV record (RFC 4180 quoting). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      cells.push(cell);
      cell = "";
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}

describe("Export menu on the admin dashboard", () => {
  test("the menu lists the three exports and is reachable with the keyboard", async () => {
    const { page } = admin;
    // Every cohort of the school (the dashboard opens on the current cohort).
    await page.goto(`${ADMIN.home}?cohort=all`);
    await expectTitle(page, ADMIN.title);
    await settled(page);
    await chooseOption(page, "School", SCHOOL_NAME);
    await settled(page);
    const menu = await openExportMenu(page);
    expect(await menu.getByRole("menuitem").allTextContents()).toEqual(["Download PDF", "E-mail report", "Download CSV"]);
    // Arrow keys move between the items (and wrap around).
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press("ArrowDown");
      seen.push(await focusedText(page));
    }
    expect(seen.slice(0, 3).toSorted()).toEqual(["Download CSV", "Download PDF", "E-mail report"]);
    expect(seen[3]).toBe(seen[0]);
    await page.screenshot({ path: "/tmp/v13-export-menu.png" });
    await expectNoSeriousA11yViolations(page, "the open Export menu");
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "hidden" });
    // Focus goes back to the button, so the keyboard user is where they were.
    expect(await exportButton(page).evaluate((el) => el === document.activeElement)).toBe(true);
  });

  test("Download PDF says Generating PDF..., then saves the report of the chosen school", async () => {
    const { page } = admin;
    // The PDF's request waits until the generating state has been seen and photographed.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/pdf-reports/generate**", async (route) => {
      await gate;
      await route.continue();
    });
    const generating = page.getByRole("status").filter({ hasText: "Generating PDF..." });
    void generating
      .waitFor({ state: "visible" })
      .then(() => page.screenshot({ path: "/tmp/v13-generating-pdf.png" }))
      .finally(release);
    const { download, path } = await downloadVia(page, "Download PDF", "mouse");
    await page.unroute("**/api/pdf-reports/generate**");
    // The API names the file REPORT_FILES.pdf; the browser saves it named for its filters and day.
    expect(download.suggestedFilename()).toMatch(reportFileNamePattern());
    expect(readFileSync(path).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const text = execFileSync("pdftotext", ["-layout", path, "-"], { encoding: "utf8" });
    expect(text).toContain(SCHOOL_NAME);
    await expect.poll(() => page.getByText("Generating PDF...").count()).toBe(0);
    expect(await page.getByRole("alert").count()).toBe(0);
  });

  test("Download CSV, chosen with the keyboard, saves every student of the chosen school, UTF-8 with a BOM", async () => {
    const { page } = admin;
    const { download, path } = await downloadVia(page, "Download CSV", "keyboard");
    expect(download.suggestedFilename()).toBe(REPORT_FILES.csv);
    const bytes = readFileSync(path);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString("utf8").split("\r\n").filter((l) => l !== "");
    expect(csvCells(lines[0]!)).toEqual([...STUDENTS_CSV_COLUMNS]);
    const rows = lines.slice(1).map(csvCells);
    const summary = (await api<Summary>("/students/summary", { school_id: SCHOOL_ID })).body;
    expect(summary.studentCount).toBeGreaterThan(0);
    expect(rows).toHaveLength(summary.studentCount);
    // The dashboard says the same.
    expect(await statValue(page, "Total Students")).toBe(summary.studentCount);
    const schoolColumn = STUDENTS_CSV_COLUMNS.indexOf("School");
    expect(new Set(rows.map((r) => r[schoolColumn]))).toEqual(new Set([SCHOOL_NAME]));
  });

  test("E-mail report sends the PDF as an attachment", async () => {
    const { page } = admin;
    const before = sentMail().length;
    const menu = await openExportMenu(page);
    await menu.getByRole("menuitem", { name: "E-mail report", exact: true }).click();
    const dialog = await visible(page.getByRole("dialog", { name: "E-mail Report" }));
    expect(await dialog.getByLabel("Subject").inputValue()).toBe(`Attendance report — ${SCHOOL_NAME}`);
    // An empty address is caught in the browser.
    await dialog.getByRole("button", { name: "Send Report" }).click();
    await visible(dialog.getByText(REPORT_MESSAGES.emailRequired));
    await dialog.getByLabel("Recipient email").fill(RECIPIENT);
    await dialog.getByLabel("Recipient name").fill("Zoë Funder");
    await settled(page);
    await page.screenshot({ path: "/tmp/v13-email-dialog.png" });
    await expectNoSeriousA11yViolations(page, "the E-mail Report dialog");
    await dialog.getByRole("button", { name: "Send Report" }).click();
    await visible(dialog.getByText(REPORT_MESSAGES.emailSent));
    await page.screenshot({ path: "/tmp/v13-email-sent.png" });
    await dialog.waitFor({ state: "hidden" });

    const mail = await nextMailTo(RECIPIENT, before);
    expect(mail.raw).toMatch(/Content-Type: application\/pdf/i);
    expect(mail.raw).toMatch(reportFileNamePattern());
  });
});

/** The saved and mailed PDF's name for the chosen school (a cohort or all-cohorts first): the contract's reportFileName. */
function reportFileNamePattern(): RegExp {
  return new RegExp(`Attendance-[\\w-]+-${fileNamePart(SCHOOL_NAME)}-\\d{4}-\\d\\d-\\d\\d\\.pdf`);
}

describe("at phone width", () => {
  test("the menu opens within the window and the page does not scroll sideways", async () => {
    const context = await newContext(admin.browser(), { width: 390, height: 844, storageState: await admin.context.storageState() });
    try {
      const phone = await context.newPage();
      await phone.goto(ADMIN.home);
      await expectTitle(phone, ADMIN.title);
      await settled(phone);
      const menu = await openExportMenu(phone);
      await animationsSettled(phone);
      const box = await menu.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390, "the menu lies within the window").toBe(true);
      expect(await horizontalOverflow(phone), "the page scrolls sideways").toBeLessThanOrEqual(0);
      await phone.screenshot({ path: "/tmp/v13-export-menu-390.png" });
    } finally {
      await context.close();
    }
  });
});

describe("a school user whose school has export off", () => {
  test("sees no Export menu, and the server refuses the export too", async () => {
    const current = await api<{ data: FeatureSettings }>("/settings/features");
    savedFeatures = current.body.data;
    const settings = restorable(savedFeatures);
    await saveFeatures({
      ...settings,
      applyToAllSchools: false,
      schoolSettings: {
        ...settings.schoolSettings,
        [String(SCHOOL_ID)]: { enableExport: false, enableStudentEditing: settings.enableStudentEditing },
      },
    });

    const { context, page: school, token } = await openSignedIn(admin.browser(), SCHOOL);
    try {
      await school.goto(SCHOOL.home);
      await expectTitle(school, SCHOOL.title);
      await visible(school.getByRole("heading", { name: /^Students \(/ }));
      await settled(school);
      expect(await exportButton(school).count()).toBe(0);
      // Hiding is a courtesy; the server is what refuses.
      const res = await context.request.get(`/api/pdf-reports/generate?schoolId=${SCHOOL_ID}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(res.status()).toBe(403);
      expect(((await res.json()) as { error: string }).error).toBe(REPORT_MESSAGES.exportOffSchool);
    } finally {
      await context.close();
    }
  });
});
