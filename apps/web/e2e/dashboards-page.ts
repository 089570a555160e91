import type { StudentListItem, StudentsResponse, StudentsSummary } from "@tally/contract";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { STEP_TIMEOUT_MS } from "./browser";

export type Query = Record<string, string | number | undefined>;

/** Calls the server's API as the session's user does, for expectations the page must match. */
export function apiAs(context: BrowserContext, token: string) {
  return async function get<T>(path: string, query: Query = {}): Promise<{ status: number; body: T }> {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
    const res = await context.request.get(`/api${path}${params.size > 0 ? `?${params}` : ""}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    return { status: res.status(), body: (await res.json()) as T };
  };
}

/** Polls until `read` gives `expected`; the message says what was being waited for. */
export async function eventually<T>(read: () => Promise<T>, expected: T, what: string): Promise<void> {
  await expect.poll(read, { timeout: STEP_TIMEOUT_MS, interval: 100, message: what }).toEqual(expected);
}

/** The number on a stat card, e.g. "Total Students"; null when the card is not there. */
export async function statValue(page: Page, label: string): Promise<number | null> {
  const value = page.getByRole("group", { name: label, exact: true }).getByTestId(`stat-${label}`);
  if ((await value.count()) === 0) return null;
  return Number((await value.textContent())?.replace(/,/g, ""));
}

/** n of the "Students (n)" heading. */
export async function studentsHeadingCount(page: Page): Promise<number | null> {
  const text = await page.getByRole("heading", { level: 2, name: /^Students \(\d+\)$/ }).textContent();
  const match = text?.match(/\((\d+)\)/);
  return match ? Number(match[1]) : null;
}

export function filterBar(page: Page): Locator {
  return page.getByRole("search", { name: "Dashboard filters" });
}

/** The input of the School, Cohort or Team dropdown. */
export function filterInput(page: Page, label: "School" | "Cohort" | "Team"): Locator {
  return filterBar(page).getByLabel(label, { exact: true });
}

/** Picks a SegmentedControl choice by clicking its label, as a person does (the radio itself is hidden). */
export async function chooseSegment(page: Page, name: string): Promise<void> {
  const radio = page.getByRole("radio", { name, exact: true });
  await page.locator(`label[for="${await radio.getAttribute("id")}"]`).click();
  await expect.poll(() => radio.isChecked(), { timeout: STEP_TIMEOUT_MS }).toBe(true);
}

/** Opens a filter dropdown, reads its option labels and closes it again. */
export async function optionLabels(page: Page, label: "School" | "Cohort" | "Team"): Promise<string[]> {
  const input = filterInput(page, label);
  await input.click();
  const listbox = page.locator(`#${await input.getAttribute("aria-controls")}`);
  await listbox.getByRole("option").first().waitFor({ state: "visible" });
  const labels = (await listbox.getByRole("option").allTextContents()).map((t) => t.trim());
  await page.keyboard.press("Escape");
  await listbox.waitFor({ state: "hidden" });
  return labels;
}

/** Chooses an option of a filter dropdown by its label. */
export async function chooseOption(page: Page, label: "School" | "Cohort" | "Team", option: string): Promise<void> {
  const input = filterInput(page, label);
  await input.click();
  const listbox = page.locator(`#${await input.getAttribute("aria-controls")}`);
  await listbox.getByRole("option", { name: option, exact: true }).click();
  await eventually(() => input.inputValue(), option, `the ${label} filter to show ${option}`);
}

export function studentCards(page: Page): Locator {
  return page.getByTestId("student-card");
}

/** The name (the card's accessible name) of every card on the current grid page. */
export async function cardNames(page: Page): Promise<string[]> {
  return studentCards(page).evaluateAll((cards) => cards.map((c) => c.getAttribute("aria-label") ?? ""));
}

/** The value of one "Label: value" line on every card. */
export async function cardLines(page: Page, label: "Cohort" | "Team" | "School"): Promise<string[]> {
  return studentCards(page).evaluateAll(
    (cards, prefix) =>
      cards.map((c) => {
        const line = [...c.querySelectorAll("p")].find((p) => p.textContent?.startsWith(prefix));
        return line?.textContent?.slice(prefix.length).trim() ?? "";
      }),
    `${label}:`,
  );
}

/** How far the page is wider than the window: anything above 0 means sideways scrolling. */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** "Mar 3, 2026", as the dashboard shows a YYYY-MM-DD date. */
export function shownDate(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  });
}

// The replies the journeys compare the page with, typed by the contract as the app's are.
export type StudentRow = StudentListItem;
export type StudentsReply = StudentsResponse;
export type Summary = StudentsSummary;
export interface Named {
  id: number;
  name: string;
}
export interface TeamRow extends Named {
  school_id: number;
  cohort_id: number;
  cohort_name: string;
}
