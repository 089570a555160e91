import type { Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { expectNoSeriousA11yViolations, expectTitle, settled, visible } from "./browser";
import { openSignedIn, useBrowser } from "./journey-setup";
import {
  type Named,
  type StudentsReply,
  apiAs,
  cardLines,
  filterBar,
  optionLabels,
  statValue,
  studentCards,
  studentsHeadingCount,
} from "./dashboards-page";
import { ADMIN, DISTRICT, SCHOOL } from "./demo-accounts";

// What a district user and a school user see on their dashboards, and what they cannot reach.
const DISTRICT_SCHOOLS = ["Northgate High School", "Cedar Ridge High School", "Jefferson Academy", "Maplewood Career Academy"];
const SCHOOL_NAME = "Northgate High School";

const browser = useBrowser();
let admin: ReturnType<typeof apiAs>;

/** Opens the signed-in user's dashboard and waits for its first cards. */
async function dashboardOf(page: Page, home: string, title: string): Promise<Page> {
  // Every cohort: the counts below are the user's whole scope (the dashboard opens on the current cohort).
  await page.goto(`${home}?cohort=all`);
  await expectTitle(page, title);
  await visible(page.getByRole("heading", { level: 2, name: /^Students \(\d+\)$/ }));
  await visible(studentCards(page).first());
  await settled(page);
  return page;
}

beforeAll(async () => {
  const { context, token } = await openSignedIn(browser(), ADMIN);
  admin = apiAs(context, token);
});

describe("a district user", () => {
  let page: Page;
  let api: ReturnType<typeof apiAs>;

  beforeAll(async () => {
    const signedIn = await openSignedIn(browser(), DISTRICT);
    api = apiAs(signedIn.context, signedIn.token);
    page = await dashboardOf(signedIn.page, DISTRICT.home, "District Dashboard");
  });

  test("sees the District Dashboard over its 4 schools, and only those in the School filter", async () => {
    await visible(page.getByText("4 Schools Overview", { exact: true }));
    expect((await optionLabels(page, "School")).toSorted()).toEqual(DISTRICT_SCHOOLS.toSorted());
    expect(await statValue(page, "Total Schools")).toBe(4);
    await expectNoSeriousA11yViolations(page, "the District Dashboard");
  });

  test("every card is a student of those schools, and the count is the district's", async () => {
    const own = (await api<StudentsReply>("/students", { limit: 1 })).body.total;
    const everyone = (await admin<StudentsReply>("/students", { limit: 1 })).body.total;
    expect(own).toBeLessThan(everyone);
    expect(await studentsHeadingCount(page)).toBe(own);
    expect(await statValue(page, "Total Students")).toBe(own);
    const schools = await cardLines(page, "School");
    expect(schools.length).toBeGreaterThan(0);
    for (const school of schools) expect(DISTRICT_SCHOOLS).toContain(school);
  });
});

describe("a school user", () => {
  let page: Page;
  let api: ReturnType<typeof apiAs>;

  beforeAll(async () => {
    const signedIn = await openSignedIn(browser(), SCHOOL);
    api = apiAs(signedIn.context, signedIn.token);
    page = await dashboardOf(signedIn.page, SCHOOL.home, `${SCHOOL_NAME} Dashboard`);
  });

  test("sees its school's dashboard without a School filter or a Total Schools card", async () => {
    await visible(page.getByText("Student and Attendance Overview", { exact: true }));
    await visible(filterBar(page).getByLabel("Cohort", { exact: true }));
    expect(await filterBar(page).getByLabel("School", { exact: true }).count()).toBe(0);
    expect(await statValue(page, "Total Schools")).toBeNull();
    expect(await statValue(page, "Total Students")).toBe(await studentsHeadingCount(page));
    await expectNoSeriousA11yViolations(page, "the school dashboard");
  });

  test("every card on every page is a student of its own school", async () => {
    const total = await studentsHeadingCount(page);
    const pages = Math.ceil((total ?? 0) / 24);
    expect(pages).toBeGreaterThan(1);
    for (let n = 1; n <= pages; n++) {
      if (n > 1) {
        await page.getByRole("button", { name: `Page ${n}`, exact: true }).click();
        await visible(page.getByText(new RegExp(`^Showing ${(n - 1) * 24 + 1}–`)));
      }
      expect(new Set(await cardLines(page, "School"))).toEqual(new Set([SCHOOL_NAME]));
    }
  });

  test("asking the API for another school's student gives 404, its own student 200", async () => {
    const others = (await admin<StudentsReply & { data: Array<{ id: number }> }>("/students", { school_id: 2, limit: 1 })).body;
    const other = others.data[0];
    if (!other) throw new Error("School 2 of the demo has no students");
    const reply = await api<{ code: string }>(`/students/${other.id}`);
    expect(reply.status).toBe(404);
    // The same answer as for an id that does not exist: nothing tells the student is there.
    expect(reply.body).toEqual((await api<{ code: string }>("/students/2147483647")).body);
    const own = (await api<StudentsReply>("/students", { limit: 1 })).body.data[0];
    expect((await api<Named>(`/students/${own?.id}`)).status).toBe(200);
  });
});
