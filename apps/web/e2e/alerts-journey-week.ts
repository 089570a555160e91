import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { expectTitle, settled, visible } from "./browser";
import { WEEK3_FIXTURES } from "./journey-setup";

// The week the early-warning journeys import: the sample week's three reports moved to week 2 of
// a cohort that runs now, whatever the day (week 1 began two Mondays ago, so week 2, its meetings
// on Tuesday and Thursday, is over and this week is week 3), in one school of the journey's own.
// Fatima Rodríguez misses both meetings in the sample files; Dmitri Silva is made to here.

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const today = new Date();
const thisMonday = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - ((today.getUTCDay() + 6) % 7) * DAY_MS;

export const COHORT_START = isoDay(thisMonday - 14 * DAY_MS);
export const MENTOR_DATE = isoDay(thisMonday - 6 * DAY_MS);
export const ADVISOR_DATE = isoDay(thisMonday - 4 * DAY_MS);
/** Absent at both meetings of the imported week. */
export const MISSED_BOTH = ["Fatima Rodríguez", "Dmitri Silva"];

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "2026-11-17" → "17 Nov", as the alerts' evidence names a date. */
export const dayMonth = (iso: string) => `${Number(iso.slice(8, 10))} ${MONTHS[Number(iso.slice(5, 7)) - 1]}`;

/** Writes the week's three reports into `dir` for `school`; returns them by their field's label. */
export function writeWeekFiles(dir: string, school: string): Record<string, string> {
  const moved = (text: string) =>
    text
      .replaceAll(/Riverside Academy|Eastwood Secondary|Northside High School/g, school)
      .replaceAll("2026-07-14", MENTOR_DATE)
      .replaceAll("2026-07-16", ADVISOR_DATE);
  const attendance = moved(readFileSync(`${WEEK3_FIXTURES}meeting-attendance.csv`, "utf8"))
    .split("\n")
    .map((line) => (line.startsWith("Dmitri,Silva,") ? line.replace(/,(Present|Late),/, ",Absent,") : line))
    .join("\n");
  const files = {
    "Meeting attendance report": join(dir, "meeting-attendance.csv"),
    "Progress report": join(dir, "progress.csv"),
    "Reflection report": join(dir, "reflections.csv"),
  };
  writeFileSync(files["Meeting attendance report"], attendance);
  writeFileSync(files["Progress report"], readFileSync(`${WEEK3_FIXTURES}progress.csv`, "utf8"));
  writeFileSync(files["Reflection report"], readFileSync(`${WEEK3_FIXTURES}reflections.csv`, "utf8"));
  return files;
}

export const importSection = (page: Page): Locator => page.getByRole("region", { name: "Cohort & Weekly Data Management", exact: true });

/**
 * An admin imports the files as week 2 of a new cohort through Admin Settings, as a person does;
 * `beforeCommit` runs just before Confirm. Returns the success banner's text.
 */
export async function importWeekAsNewCohort(page: Page, files: Record<string, string>, cohort: string, beforeCommit = () => {}): Promise<string> {
  await page.goto("/admin/settings");
  await expectTitle(page, "Admin Settings");
  await visible(importSection(page).getByRole("table", { name: "Cohorts" }));
  await settled(page);
  await importSection(page).getByRole("button", { name: "Import Weekly Data for Cohort" }).click();
  const dialog = await visible(page.getByRole("dialog", { name: "Import Weekly Cohort Data" }));
  await dialog.getByLabel("New cohort").check();
  await dialog.getByLabel("Cohort name").fill(cohort);
  await dialog.getByLabel("Start date").fill(COHORT_START);
  await dialog.getByLabel("Program type").selectOption("Internship (6 week)");
  await dialog.getByLabel("Week number").fill("2");
  for (const [label, path] of Object.entries(files)) await dialog.getByLabel(label).setInputFiles(path);
  await dialog.getByRole("button", { name: "Preview Import" }).click();
  await visible(dialog.getByRole("heading", { name: "Preview Upload Summary" }));
  await settled(page);
  if ((await dialog.getByTestId("week-mismatch").count()) > 0) throw new Error("The meetings should fall in week 2");
  beforeCommit();
  await dialog.getByRole("button", { name: "Confirm & Save Data" }).click();
  // Waited for, not polled: a file's beforeAll imports too, where expect.poll cannot run.
  await dialog.waitFor({ state: "detached", timeout: 30_000 });
  return (await visible(importSection(page).getByTestId("success-banner")).then((b) => b.textContent())) ?? "";
}
