import { mkdirSync } from "node:fs";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { expectTitle, newContext, settled, visible } from "./browser";
import { studentCards } from "./dashboards-page";
import { ADMIN } from "./demo-accounts";
import { useSignedInPage } from "./journey-setup";

// Issue 29, "Keyboard, small screens": focus comes back to what opened a dialog, inputs show the
// buttons' focus ring, and at 390 px the student's attendance reads in words with nothing cut off.

// Not committed: for a person to look at. The repository root's .tmp is git-ignored.
const SCREENS_DIR = new URL("../../../.tmp/screens/", import.meta.url).pathname;

const admin = useSignedInPage(ADMIN);

beforeAll(() => {
  mkdirSync(SCREENS_DIR, { recursive: true });
});

const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

/** Presses Tab until `locator` has the focus (as a keyboard user gets there). */
async function tabTo(page: Page, locator: Locator, most = 60): Promise<void> {
  for (let i = 0; i < most; i++) {
    if (await isFocused(locator)) return;
    await page.keyboard.press("Tab");
  }
  expect(await isFocused(locator), "Tab never reached it").toBe(true);
}

async function outline(locator: Locator): Promise<string> {
  return locator.evaluate((el) => {
    const style = getComputedStyle(el);
    return `${style.outlineStyle} ${style.outlineWidth}`;
  });
}

describe("by keyboard", () => {
  test("a student's dialog opened with Enter and closed with Escape gives focus back to its View Details button", async () => {
    const { page } = admin;
    await page.goto(ADMIN.home);
    await expectTitle(page, ADMIN.title);
    await settled(page);
    const opener = studentCards(page).first().getByRole("button", { name: /^View Details/ });
    await tabTo(page, opener);
    expect(await outline(opener), "the button's own focus ring").toBe("solid 2px");
    await page.keyboard.press("Enter");
    const dialog = await visible(page.getByRole("dialog"));
    await visible(dialog.getByRole("tab", { name: "Overview" }));
    expect(await isFocused(opener)).toBe(false);

    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => isFocused(opener), { timeout: 2_000 }).toBe(true);
  });

  test("the search box, a filter combobox and a password field show the buttons' 2 px focus ring", async () => {
    const { page } = admin;
    await page.goto(ADMIN.home);
    await expectTitle(page, ADMIN.title);
    await settled(page);
    const search = page.getByRole("searchbox", { name: "Search" });
    await tabTo(page, search);
    expect(await outline(search)).toBe("solid 2px");
    const school = page.getByRole("combobox", { name: "School" }).first();
    await tabTo(page, school);
    expect(await outline(school)).toBe("solid 2px");
  });

  test("on the sign-in page, the show-password toggle is a tab stop, and the reset dialog gives focus back to its link", async () => {
    const context = await newContext(admin.browser());
    try {
      const page = await context.newPage();
      await page.goto("/login");
      await expectTitle(page, "Sign in to Tally");
      const password = page.getByLabel("Password", { exact: true });
      await tabTo(page, password);
      // The visible box of the password field is the wrapper around its input.
      expect(await password.evaluate((el) => getComputedStyle(el.parentElement!).outlineWidth)).toBe("2px");
      await page.keyboard.press("Tab");
      const toggle = page.getByRole("button", { name: "Show or hide characters" });
      expect(await isFocused(toggle), "the toggle follows the password field in the tab order").toBe(true);
      await page.keyboard.press("Enter");
      expect(await password.getAttribute("type")).toBe("text");

      const forgot = page.getByRole("button", { name: "Forgot your password?" });
      await tabTo(page, forgot);
      await page.keyboard.press("Enter");
      const dialog = await visible(page.getByRole("dialog"));
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      await expect.poll(() => isFocused(forgot), { timeout: 2_000 }).toBe(true);
    } finally {
      await context.close();
    }
  });
});

describe("at 390 px", () => {
  let page: Page;
  beforeAll(async () => {
    const context = await newContext(admin.browser(), { width: 390, height: 844, storageState: admin.session });
    page = await context.newPage();
  });
  afterAll(async () => {
    await page?.context().close();
  });

  test("the student's attendance is stacked rows with the status in words, nothing wider than the window or cut off", async () => {
    // The demo's six-week cohort (seed id 3): other journeys add cohorts of their own, which
    // would become the admin's current cohort.
    await page.goto(`${ADMIN.home}?cohort=3`);
    await expectTitle(page, ADMIN.title);
    await settled(page);
    // A phone lists the students as compact rows, each opening the student's details.
    await page.getByTestId("student-row").first().click();
    const dialog = await visible(page.getByRole("dialog"));
    await dialog.getByRole("tab", { name: "Attendance", exact: true }).click();
    const list = await visible(dialog.getByTestId("attendance-record-list"));
    await settled(page);
    expect(await dialog.getByRole("table").count(), "no table scrolling sideways").toBe(0);

    const rows = await list.getByRole("listitem").allTextContents();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row, "each row says its status").toMatch(/Present|Late|Absent/);

    const problems = await list.evaluate((root) => {
      const width = window.innerWidth;
      const found: string[] = [];
      for (const el of [root, ...root.querySelectorAll<HTMLElement>("*")]) {
        const box = el.getBoundingClientRect();
        if (box.width === 0) continue;
        const name = `${el.tagName.toLowerCase()} "${(el.textContent ?? "").slice(0, 40)}"`;
        if (box.left < 0 || box.right > width) found.push(`${name} spans ${box.left.toFixed(0)}–${box.right.toFixed(0)} px`);
        if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible") found.push(`${name} is cut off`);
      }
      return found;
    });
    expect(problems).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SCREENS_DIR}attendance-390.png`, animations: "disabled" });
  });
});
