import { mkdirSync } from "node:fs";
import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { expectNoSeriousA11yViolations, expectTitle, newContext, type SessionState, settled, signedInState, visible } from "./browser";
import { useBrowser } from "./journey-setup";
import { horizontalOverflow, studentCards } from "./dashboards-page";
import { ADMIN, DISTRICT, SCHOOL, SUPER_ADMIN } from "./demo-accounts";

// Not committed: for a person to look at. The repository root's .tmp is git-ignored.
const SCREENS_DIR = new URL("../../../.tmp/screens/", import.meta.url).pathname;
const WIDTHS = [1280, 390] as const;
const DEMO_SIX_WEEK_COHORT_ID = 3;
const ROLES = [
  { name: "admin", account: ADMIN, title: ADMIN.title },
  { name: "district", account: DISTRICT, title: DISTRICT.title },
  { name: "school", account: SCHOOL, title: SCHOOL.title },
] as const;
const TABS = ["Overview", "Attendance", "Flags", "Reflections", "Advisor Notes"] as const;
const SCROLL_HINT = "Scroll sideways for advisor columns";

const browser = useBrowser();
const sessions = new Map<string, SessionState>();

beforeAll(async () => {
  mkdirSync(SCREENS_DIR, { recursive: true });
  await Promise.all(
    [...ROLES, { name: "superadmin", account: SUPER_ADMIN }].map(async (r) =>
      sessions.set(r.name, await signedInState(browser(), r.account.username, r.account.home)),
    ),
  );
});

async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  await settled(page);
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  await page.screenshot({ path: `${SCREENS_DIR}dash-${name}.png`, fullPage, animations: "disabled" });
}

async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  expect(await horizontalOverflow(page), `${what} scrolls sideways`).toBeLessThanOrEqual(0);
}

/** Whether the element lies wholly inside the window's width. */
async function withinWindow(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const width = locator.page().viewportSize()?.width ?? 0;
  return !!box && box.x >= 0 && box.x + box.width <= width;
}

/** Search, role, Settings (admins) and Logout all within the window, in two rows at most. */
async function expectTidyHeader(page: Page, withSettings: boolean): Promise<void> {
  const header = page.getByRole("banner");
  const search = header.getByRole("searchbox", { name: "Search" });
  expect(await withinWindow(search), "the search box lies within the window").toBe(true);
  expect((await search.boundingBox())?.width ?? 0, "the search box is wide enough for its placeholder").toBeGreaterThan(300);
  expect(await withinWindow(header.getByRole("button", { name: "Logout" })), "Logout lies within the window").toBe(true);
  expect(await withinWindow(header.getByTestId("header-role-label")), "the role label lies within the window").toBe(true);
  if (withSettings) expect(await withinWindow(header.getByRole("link", { name: "Settings" })), "Settings lies within the window").toBe(true);
  expect((await header.boundingBox())?.height ?? 0, "the header is at most two rows high").toBeLessThan(130);
}

/** Phones (below 576 px) list the students compactly, one line each; wider screens show cards. */
const COMPACT_BELOW = 576;

/** The first student's View Details control: the whole row on a phone, the card's button elsewhere. */
function firstStudent(page: Page, width: number) {
  return width < COMPACT_BELOW
    ? page.getByTestId("student-row").first()
    : studentCards(page).first().getByRole("button", { name: /^View Details/ });
}

async function openDashboard(role: { name: string; account: { home: string }; title: string }, width: number): Promise<Page> {
  const context = await newContext(browser(), { width, height: 844, storageState: sessions.get(role.name) });
  const page = await context.newPage();
  // The demo's Spring 2026 Short Internship (seed id 3), six weeks of data for every role: other
  // journeys add cohorts of their own (the flag uploader's runs today), which would become an
  // admin's current cohort.
  await page.goto(`${role.account.home}?cohort=${DEMO_SIX_WEEK_COHORT_ID}`);
  await expectTitle(page, role.title);
  await visible(firstStudent(page, width));
  await visible(page.getByTestId("trend-chart"));
  await settled(page);
  return page;
}

describe.each(WIDTHS)("at %i px wide", (width) => {
  test.each(ROLES)("the $name dashboard fits the window and is captured", async (role) => {
    const page = await openDashboard(role, width);
    try {
      await expectNoSidewaysScroll(page, `the ${role.name} dashboard`);
      if (width < COMPACT_BELOW) {
        // A compact list, not a screen-high card per student (issue 29).
        expect(await studentCards(page).count(), "no tall cards on a phone").toBe(0);
        const rows = page.getByTestId("student-row");
        expect(await rows.count()).toBeGreaterThan(1);
        expect((await rows.first().boundingBox())?.height ?? 999, "a student's row is compact").toBeLessThan(110);
      }
      await shoot(page, `${role.name}-${width}`);
      await shoot(page, `${role.name}-${width}-first-screen`, false);

      await expectTidyHeader(page, role.name === "admin");
      // The wide layout is scanned by the journeys; the narrow one has its own header and hint.
      if (width < 600) await expectNoSeriousA11yViolations(page, `the ${role.name} dashboard at ${width} px`);

      // The weekly table scrolls inside itself when narrow, and says so only then.
      const table = page.getByRole("table", { name: "Attendance by Week" });
      await visible(table);
      if (role.name === "admin") {
        const section = page.getByRole("region", { name: "Attendance by Week" });
        await section.screenshot({ path: `${SCREENS_DIR}dash-weekly-table-${width}.png`, animations: "disabled" });
      }
      const scrolls = await table.evaluate((el) => {
        for (let box = el.parentElement; box && box.tagName !== "SECTION"; box = box.parentElement) {
          if (box.scrollWidth > box.clientWidth + 1) return getComputedStyle(box).overflowX === "auto";
        }
        return false;
      });
      expect(scrolls, "the weekly table scrolls sideways").toBe(width < 600);
      expect(await page.getByText(SCROLL_HINT).isVisible(), "the scroll hint").toBe(scrolls);
      const weekCell = table.getByRole("rowheader", { name: /^Week 1 · / });
      const lineHeight = await weekCell.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight) || 20);
      expect((await weekCell.boundingBox())?.height ?? 0, "Week 1 stays on one line").toBeLessThan(lineHeight * 2 + 16);
    } finally {
      await page.context().close();
    }
  });

  test("the student dialog fits the window on every tab and in the edit form", async () => {
    const page = await openDashboard(ROLES[0], width);
    try {
      await firstStudent(page, width).click();
      const dialog = page.getByRole("dialog");
      await visible(dialog.getByRole("tab", { name: "Overview" }));
      for (const tab of TABS) {
        await dialog.getByRole("tab", { name: tab, exact: true }).click();
        await visible(dialog.getByRole("tabpanel", { name: tab }));
        await expectNoSidewaysScroll(page, `the ${tab} tab`);
        await shoot(page, `modal-${tab.toLowerCase().replace(" ", "-")}-${width}`, false);
      }
      await dialog.getByRole("button", { name: "Edit Student" }).click();
      await visible(dialog.getByRole("form", { name: "Edit student" }));
      await expectNoSidewaysScroll(page, "the Edit Student form");
      await shoot(page, `modal-edit-${width}`, false);
    } finally {
      await page.context().close();
    }
  });
});

describe.each([360, 600, 900])("the header of the longest role label at %i px wide", (width) => {
  test("keeps Settings and Logout in the window, in two rows at most", async () => {
    const page = await openDashboard({ name: "superadmin", account: SUPER_ADMIN, title: SUPER_ADMIN.title }, width);
    try {
      await page.getByRole("banner").screenshot({ path: `${SCREENS_DIR}dash-header-superadmin-${width}.png` });
      await expectTidyHeader(page, true);
      await expectNoSidewaysScroll(page, "the super admin dashboard");
    } finally {
      await page.context().close();
    }
  });
});
