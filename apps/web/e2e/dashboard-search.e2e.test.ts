import type { AlertList, AlertSummary, CohortItem } from "@tally/contract";
import { describe, expect, test } from "vitest";
import type { Page } from "playwright-core";
import { expectTitle, settled, visible } from "./browser";
import { useSignedInPage } from "./journey-setup";
import { type StudentsReply, type Summary, apiAs, cardNames, chooseOption, eventually, filterInput, statValue, studentsHeadingCount } from "./dashboards-page";
import { ADMIN } from "./demo-accounts";

// Issue 29: the search reads names as the import does, and the dashboard's view (filters and
// search) lives in its URL: it survives a reload, Back and a trip to Settings. Issue 41: the
// Needs attention card counts the search too, and a search that finds nobody in the chosen
// cohort says how many it finds in others.

const admin = useSignedInPage(ADMIN);
const api = () => apiAs(admin.context, admin.token);

/** The text without accents, lower-case: what a coordinator types on any keyboard. */
function plain(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

async function openAll(): Promise<void> {
  const { page } = admin;
  await page.goto(`${ADMIN.home}?cohort=all`);
  await expectTitle(page, ADMIN.title);
  await visible(page.getByRole("heading", { level: 2, name: /^Students \(\d+\)$/ }));
  await settled(page);
}

describe("the dashboard search", () => {
  test("finds a name with accents typed without them, as \"Last, First\"", async () => {
    const { page } = admin;
    const everyone = (await api()<StudentsReply>("/students", { limit: 1000 })).body.data;
    const accented = everyone.find((s) => plain(s.first_name) !== s.first_name.toLowerCase() || plain(s.last_name) !== s.last_name.toLowerCase());
    if (!accented) throw new Error("The demo data has no student with an accented name");
    const name = `${accented.first_name} ${accented.last_name}`;
    const typed = `${plain(accented.last_name)}, ${plain(accented.first_name)}`;
    await openAll();
    await page.getByRole("searchbox", { name: "Search" }).fill(typed);
    await expect.poll(() => cardNames(page), { timeout: 15_000 }).toContain(name);
    const expected = (await api()<Summary>("/students/summary", { q: typed })).body;
    expect(expected.studentCount).toBeGreaterThan(0);
    await eventually(() => statValue(page, "Total Students"), expected.studentCount, "Total Students of the search");
    await eventually(() => studentsHeadingCount(page), expected.studentCount, "Students (n) of the search");
    // The whole page says whom it counts.
    await visible(page.getByTestId("search-scope"));
    expect(new URL(page.url()).searchParams.get("q")).toBe(typed);
  });

  test("suggests the closest name when nothing matches, and one click searches it", async () => {
    const { page } = admin;
    const first = (await api()<StudentsReply>("/students", { limit: 1 })).body.data[0]!;
    const name = `${first.first_name} ${first.last_name}`;
    // One letter dropped from the last name.
    const typo = `${first.first_name} ${first.last_name.slice(0, 2)}${first.last_name.slice(3)}`;
    await openAll();
    await page.getByRole("searchbox", { name: "Search" }).fill(typo);
    await visible(page.getByText(`No students found for “${typo}”.`));
    expect(await statValue(page, "Total Students")).toBe(0);
    expect(await page.getByTestId("trend-chart").count()).toBe(0);
    await page.getByRole("button", { name, exact: true }).click();
    await expect.poll(() => cardNames(page), { timeout: 15_000 }).toContain(name);
  });
});

/** The number on the Needs attention card; null while it is not there. */
async function attentionValue(page: Page): Promise<number | null> {
  const card = page.getByTestId("stat-needs-attention");
  if ((await card.count()) === 0) return null;
  const match = /Needs attention([\d,]+)Open the list/.exec((await card.textContent()) ?? "");
  return match ? Number(match[1]!.replace(/,/g, "")) : null;
}

describe("a search beyond the chosen cohort", () => {
  test("the Needs attention card counts the search; nobody in the cohort offers the others in one click", async () => {
    const { page } = admin;
    // A student with an alert, and a cohort where searching their name finds nobody.
    const alert = (await api()<AlertList>("/alerts", { pageSize: 1 })).body.data[0];
    if (!alert) throw new Error("The demo data has no alert");
    const name = alert.studentName;
    const cohorts = (await api()<{ data: CohortItem[] }>("/cohorts")).body.data;
    let other: CohortItem | undefined;
    for (const cohort of cohorts) {
      if ((await api()<Summary>("/students/summary", { cohortId: cohort.id, q: name })).body.studentCount === 0) {
        other = cohort;
        break;
      }
    }
    if (!other) throw new Error(`Every demo cohort has a student named ${name}`);
    const everywhere = (await api()<Summary>("/students/summary", { q: name })).body.studentCount;
    const flagged = (await api()<AlertSummary>("/alerts/summary", { q: name })).body.total;
    expect(everywhere).toBeGreaterThan(0);
    expect(flagged).toBeGreaterThan(0);

    await page.goto(`${ADMIN.home}?cohort=${other.id}&q=${encodeURIComponent(name)}`);
    const hint = await visible(page.getByTestId("search-elsewhere"));
    const students = everywhere === 1 ? "1 student matches" : `${everywhere} students match`;
    expect(await hint.textContent()).toContain(`No students match “${name}” in ${other.name}. ${students} in other cohorts.`);
    await eventually(() => attentionValue(page), 0, "the card counts the cohort's search: nobody");
    await hint.getByRole("button", { name: "Search all cohorts" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("cohort")).toBe("all");
    await expect.poll(() => cardNames(page)).toContain(name);
    await eventually(() => attentionValue(page), flagged, "the card counts the alerts of the search");
    expect(await page.getByTestId("search-elsewhere").count()).toBe(0);

    // The card opens the list with the search, and the list shows what the card counted.
    await page.getByTestId("stat-needs-attention").click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/alerts");
    expect(new URL(page.url()).searchParams.get("q")).toBe(name);
    await visible(page.getByTestId("search-scope"));
    await eventually(() => page.getByTestId("alert-row").count(), Math.min(flagged, 50), "the list's rows of the search");
  });
});

describe("the dashboard's URL", () => {
  test("keeps the filters and the search through a reload, a trip to Settings and Back", async () => {
    const { page } = admin;
    const schools = (await api()<{ data: Array<{ id: number; name: string }> }>("/schools")).body.data;
    const school = schools[1]!;
    await openAll();
    await chooseOption(page, "School", school.name);
    await expect.poll(() => new URL(page.url()).searchParams.get("school")).toBe(String(school.id));
    const withSchool = (await api()<Summary>("/students/summary", { school_id: school.id })).body;
    await eventually(() => statValue(page, "Total Students"), withSchool.studentCount, "the school's total");
    await page.getByRole("searchbox", { name: "Search" }).fill("a");
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe("a");
    const view = new URL(page.url()).search;
    const searched = (await api()<Summary>("/students/summary", { school_id: school.id, q: "a" })).body;

    const expectView = async (what: string) => {
      await expectTitle(page, ADMIN.title);
      await expect.poll(() => new URL(page.url()).search, { message: what }).toBe(view);
      await expect.poll(() => filterInput(page, "School").inputValue(), { message: what }).toBe(school.name);
      expect(await page.getByRole("searchbox", { name: "Search" }).inputValue()).toBe("a");
      await eventually(() => statValue(page, "Total Students"), searched.studentCount, `the total ${what}`);
    };
    await page.reload();
    await expectView("after a reload");

    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Settings" }).click();
    await expect.poll(() => new URL(page.url()).pathname).not.toBe(ADMIN.home);
    await page.goBack();
    await expectView("after Back from Settings");

    // The navigation's plain link to the dashboard brings the same view back.
    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Settings" }).click();
    await expect.poll(() => new URL(page.url()).pathname).not.toBe(ADMIN.home);
    await page.goto(ADMIN.home);
    await expectView("after the plain dashboard link");

    // Back undoes a filter change.
    await chooseOption(page, "School", schools[0]!.name);
    await expect.poll(() => new URL(page.url()).searchParams.get("school")).toBe(String(schools[0]!.id));
    await page.goBack();
    await expectView("after Back from another school");
  });
});
