import type { Locator } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { expectNoSeriousA11yViolations, expectTitle, settled, visible } from "./browser";
import { useSignedInPage } from "./journey-setup";
import {
  type Named,
  type StudentRow,
  type StudentsReply,
  type Summary,
  type TeamRow,
  apiAs,
  cardLines,
  cardNames,
  chooseOption,
  chooseSegment,
  eventually,
  filterBar,
  optionLabels,
  shownDate,
  statValue,
  studentCards,
  studentsHeadingCount,
} from "./dashboards-page";
import { ADMIN } from "./demo-accounts";

// The admin's dashboard, checked against what the server says the same user may see.
const DEMO_SCHOOL = "Demo High School";
const DEMO_COHORT = "Demo Cohort 2026";
const PER_PAGE = 24;

const admin = useSignedInPage(ADMIN);
let api: ReturnType<typeof apiAs>;
let everything: Summary;

async function summaryOf(query: Record<string, number | string | undefined> = {}): Promise<Summary> {
  return (await api<Summary>("/students/summary", query)).body;
}
async function studentsOf(query: Record<string, number | string | undefined> = {}): Promise<StudentsReply> {
  return (await api<StudentsReply>("/students", { limit: PER_PAGE, ...query })).body;
}

async function stats(): Promise<Summary> {
  const { page } = admin;
  return {
    schoolCount: (await statValue(page, "Total Schools")) ?? -1,
    studentCount: (await statValue(page, "Total Students")) ?? -1,
    cohortCount: (await statValue(page, "Total Cohorts")) ?? -1,
    teamCount: (await statValue(page, "Total Teams")) ?? -1,
  };
}

async function expectGridMatches(query: Record<string, number | string | undefined>, what: string): Promise<StudentsReply> {
  const { page } = admin;
  const expected = await studentsOf(query);
  await eventually(() => studentsHeadingCount(page), expected.total, `Students (n) for ${what}`);
  const names = expected.data.map((s) => `${s.first_name} ${s.last_name}`.trim());
  await eventually(() => cardNames(page), names, `the cards for ${what}`);
  return expected;
}

/** The whole programme: every cohort (the dashboard opens on the current one). */
async function openDashboard(): Promise<void> {
  const { page } = admin;
  await page.goto(`${ADMIN.home}?cohort=all`);
  await expectTitle(page, ADMIN.title);
  await visible(page.getByRole("heading", { level: 2, name: /^Students \(\d+\)$/ }));
  await settled(page);
}

/** A cohort with more than one week of attendance (the chart's and the table's subject). */
async function cohortWithWeeks(): Promise<Named> {
  const cohorts = (await api<{ data: Named[] }>("/cohorts")).body.data;
  for (const cohort of cohorts) {
    const weeks = (await api<{ data: unknown[] }>("/attendance/cohort-trends", { cohortId: cohort.id })).body.data;
    if (weeks.length > 1) return cohort;
  }
  throw new Error("No cohort of the demo data has two weeks of attendance");
}

beforeAll(async () => {
  api = apiAs(admin.context, admin.token);
  everything = await summaryOf();
});

describe("the admin dashboard", () => {
  test("shows the four stat cards with the server's totals, and the demo school and cohort nowhere", async () => {
    const { page } = admin;
    await openDashboard();
    expect(everything.schoolCount).toBeGreaterThan(1);
    await eventually(stats, everything, "the four stat cards");
    await expectNoSeriousA11yViolations(page, "the admin dashboard");

    const schools = (await api<{ data: Named[] }>("/schools")).body.data;
    expect(schools.map((s) => s.name)).not.toContain(DEMO_SCHOOL);
    const schoolOptions = await optionLabels(page, "School");
    expect(schoolOptions).not.toContain(DEMO_SCHOOL);
    expect(schoolOptions.toSorted()).toEqual(schools.map((s) => s.name).toSorted());
    const cohortOptions = await optionLabels(page, "Cohort");
    expect(cohortOptions).not.toContain(DEMO_COHORT);
    // Total Cohorts counts cohorts with students; a cohort just added in Admin Settings has none
    // yet but is offered already, so the options follow the /cohorts list they are made from.
    const cohorts = (await api<{ data: Named[] }>("/cohorts")).body.data;
    expect(cohortOptions.toSorted()).toEqual(cohorts.map((c) => c.name).toSorted());
    expect(cohortOptions.length).toBeGreaterThanOrEqual(everything.cohortCount);
  });

  test("choosing a school, then a cohort, then a team narrows options, totals and cards; Clear Filters restores them", async () => {
    const { page } = admin;
    const school = (await api<{ data: Named[] }>("/schools")).body.data[0] as Named;
    await chooseOption(page, "School", school.name);
    const inSchool = await summaryOf({ school_id: school.id });
    await eventually(stats, inSchool, `the stat cards for ${school.name}`);
    expect(inSchool.schoolCount).toBe(1);
    expect(inSchool.studentCount).toBeLessThan(everything.studentCount);
    await expectGridMatches({ school_id: school.id }, school.name);
    expect(new Set(await cardLines(page, "School"))).toEqual(new Set([school.name]));

    const cohorts = (await api<{ data: Named[] }>("/cohorts", { school_id: school.id })).body.data;
    await eventually(
      async () => (await optionLabels(page, "Cohort")).toSorted(),
      cohorts.map((c) => c.name).toSorted(),
      "the cohort options of the school",
    );
    const teams = (await api<{ data: TeamRow[] }>("/teams", { school_id: school.id })).body.data;
    expect(teams.length).toBeGreaterThan(0);
    expect(teams.every((t) => t.school_id === school.id), "every team offered belongs to the school").toBe(true);
    await eventually(
      async () => (await optionLabels(page, "Team")).toSorted(),
      teams.map((t) => `${t.name} (${t.cohort_name})`).toSorted(),
      "the team options of the school",
    );

    const cohort = cohorts[0] as Named;
    await chooseOption(page, "Cohort", cohort.name);
    await eventually(stats, await summaryOf({ school_id: school.id, cohortId: cohort.id }), "the stat cards for the cohort");
    await expectGridMatches({ school_id: school.id, cohortId: cohort.id }, cohort.name);
    expect(new Set(await cardLines(page, "Cohort"))).toEqual(new Set([cohort.name]));
    const cohortTeams = teams.filter((t) => t.cohort_id === cohort.id);
    await eventually(
      async () => (await optionLabels(page, "Team")).toSorted(),
      cohortTeams.map((t) => t.name).toSorted(),
      "the team options of the cohort",
    );

    const team = cohortTeams[0] as TeamRow;
    await chooseOption(page, "Team", team.name);
    const inTeam = await summaryOf({ school_id: school.id, cohortId: cohort.id, teamId: team.id });
    await eventually(stats, inTeam, "the stat cards for the team");
    expect(inTeam.teamCount).toBe(1);
    await expectGridMatches({ school_id: school.id, cohortId: cohort.id, teamId: team.id }, team.name);
    expect(new Set(await cardLines(page, "Team"))).toEqual(new Set([team.name]));

    await filterBar(page).getByRole("button", { name: "Clear Filters" }).click();
    await eventually(stats, everything, "the stat cards after Clear Filters");
    await eventually(() => studentsHeadingCount(page), everything.studentCount, "Students (n) after Clear Filters");
    await expect.poll(() => filterBar(page).getByRole("button", { name: "Clear Filters" }).isDisabled()).toBe(true);
  });

  test("the meeting type switches the chart's lines; the advisor line is the dashed one", async () => {
    const { page } = admin;
    // Weeks of several cohorts are never added together: the chart shows one cohort's.
    await page.goto(`${ADMIN.home}?cohort=${(await cohortWithWeeks()).id}`);
    const chart = page.getByTestId("trend-chart");
    const lines = async () => {
      const curves = chart.locator("path.recharts-line-curve");
      const dashes = await curves.evaluateAll((paths) => paths.map((p) => !!p.getAttribute("stroke-dasharray")));
      return { lines: dashes.length, dashed: dashes.filter(Boolean).length };
    };
    await visible(chart);
    // The chart is drawn once it comes near the viewport.
    await chart.scrollIntoViewIfNeeded();
    await eventually(lines, { lines: 2, dashed: 1 }, "a solid mentor and a dashed advisor line for Both");
    await chooseSegment(page, "Mentor");
    await eventually(lines, { lines: 1, dashed: 0 }, "only the solid mentor line for Mentor");
    await chooseSegment(page, "Advisor");
    await eventually(lines, { lines: 1, dashed: 1 }, "only the dashed advisor line for Advisor");
    await chooseSegment(page, "Both");
    await eventually(lines, { lines: 2, dashed: 1 }, "both lines again for Both");
  });

  test("Attendance by Week lists Week 1 to Week N, one row per week the server reports, with its dates", async () => {
    const { page } = admin;
    const cohort = await cohortWithWeeks();
    const weeks = (await api<{ data: Array<{ week: number }> }>("/attendance/cohort-trends", { meetingType: "both", cohortId: cohort.id })).body
      .data;
    expect(weeks.length).toBeGreaterThan(1);
    const table = page.getByRole("table", { name: "Attendance by Week" });
    await visible(table);
    const rows = await table.locator("tbody th").allTextContents();
    expect(rows.map((r) => r.split(" · ")[0])).toEqual(weeks.map((w) => `Week ${w.week}`));
    for (const row of rows) expect(row).toMatch(/^Week \d+ · \d{1,2}( [A-Z][a-z]{2})?–\d{1,2} [A-Z][a-z]{2}$/);
    expect(weeks.map((w) => w.week)).toEqual(weeks.map((_, i) => i + 1));
  });

  test("the header search narrows the cards to the students that match", async () => {
    const { page } = admin;
    await openDashboard();
    const first = (await studentsOf()).data[0] as StudentRow;
    const search = page.getByRole("searchbox", { name: "Search" });
    await search.fill(first.last_name);
    const found = await expectGridMatches({ q: first.last_name }, `the search "${first.last_name}"`);
    expect(found.total).toBeLessThan(everything.studentCount);
    const texts = await studentCards(page).allTextContents();
    for (const text of texts) expect(text.toLowerCase()).toContain(first.last_name.toLowerCase());
    await search.fill("");
    await eventually(() => studentsHeadingCount(page), everything.studentCount, "Students (n) after clearing the search");
  });

  test("page 2 shows the next 24 students", async () => {
    const { page } = admin;
    const firstPage = await expectGridMatches({}, "page 1");
    expect(firstPage.data).toHaveLength(PER_PAGE);
    await page.getByRole("button", { name: "Page 2", exact: true }).click();
    const second = await expectGridMatches({ page: 2 }, "page 2");
    const overlap = second.data.filter((s) => firstPage.data.some((f) => f.id === s.id));
    expect(overlap).toEqual([]);
    await visible(page.getByText(`Showing ${PER_PAGE + 1}–${Math.min(2 * PER_PAGE, everything.studentCount)} of ${everything.studentCount}`));
    await page.getByRole("button", { name: "Page 1", exact: true }).click();
    await expectGridMatches({}, "page 1 again");
  });
});

describe("the student detail dialog", () => {
  let student: StudentRow;
  let dialog: Locator;

  async function openTab(name: string): Promise<Locator> {
    const { page } = admin;
    await dialog.getByRole("tab", { name, exact: true }).click();
    const panel = dialog.getByRole("tabpanel", { name });
    await visible(panel);
    await settled(page);
    return panel;
  }

  async function expectWeeklyTab(name: string, emptyText: string): Promise<void> {
    const { page } = admin;
    const panel = await openTab(name);
    const weeks = panel.getByRole("article");
    await visible(weeks.first());
    const labels = await weeks.evaluateAll((items) => items.map((a) => a.getAttribute("aria-label")));
    expect(labels).toEqual(labels.map((_, i) => `Week ${i + 1}`));
    // Each block: "Week N", its date and "Updated …", then the week's content or the exact empty text.
    const blocks = await weeks.evaluateAll((items) =>
      items.map((a) => ({ head: a.firstElementChild?.textContent ?? "", body: a.lastElementChild?.textContent ?? "" })),
    );
    for (const [i, block] of blocks.entries()) {
      expect(block.head).toMatch(new RegExp(`^Week ${i + 1}.+Updated \\w{3} \\d{1,2}, \\d{4}$`));
      expect(block.body.trim()).not.toBe("");
      if (block.body.endsWith("for this week")) expect(block.body).toBe(emptyText);
    }
    await expectNoSeriousA11yViolations(page, `the ${name} tab`);
  }

  test("View Details opens the student's dialog; the Overview tab shows cohort dates, team, school and e-mail", async () => {
    const { page } = admin;
    student = (await studentsOf({ page: 1 })).data[0] as StudentRow;
    const name = `${student.first_name} ${student.last_name}`;
    await page.getByRole("button", { name: `View Details for ${name}`, exact: true }).click();
    dialog = page.getByRole("dialog", { name });
    await visible(dialog);
    const detail = (await api<{ cohorts: Array<{ name: string; start_date: string; end_date: string }>; activeTeam: { name: string } | null; school_name: string; email: string }>(`/students/${student.id}`)).body;
    const cohort = detail.cohorts[0];
    if (!cohort || !detail.activeTeam) throw new Error(`Demo student ${student.id} has no cohort or team`);
    const panel = await openTab("Overview");
    await visible(panel.getByText(`${cohort.name} (${shownDate(cohort.start_date)} – ${shownDate(cohort.end_date)})`, { exact: true }));
    await visible(panel.getByText(detail.activeTeam.name, { exact: true }).first());
    await visible(panel.getByText(detail.school_name, { exact: true }));
    await visible(panel.getByText(detail.email, { exact: true }));
    await expectNoSeriousA11yViolations(page, "the Overview tab");
  });

  test("the Attendance tab shows Present, Late and Absent shares adding up to 100 % and the weeks' records", async () => {
    const { page } = admin;
    const panel = await openTab("Attendance");
    const share = async (label: string) => Number((await panel.getByTestId(`attendance-${label}`).textContent())?.replace("%", ""));
    const sum = (await share("present")) + (await share("late")) + (await share("absent"));
    expect(sum).toBeGreaterThanOrEqual(99);
    expect(sum).toBeLessThanOrEqual(101);
    const records = panel.getByRole("table");
    await visible(records.getByRole("cell", { name: "Week 1", exact: true }).first());
    await expectNoSeriousA11yViolations(page, "the Attendance tab");
  });

  test("the Flags, Reflections and Advisor Notes tabs show one block per week", async () => {
    await expectWeeklyTab("Flags", "No flags for this week");
    await expectWeeklyTab("Reflections", "No reflection for this week");
    await expectWeeklyTab("Advisor Notes", "No advisor notes for this week");
  });

  test("Edit Student renames the student in the dialog and on the grid; renaming back restores it", async () => {
    const { page, token } = admin;
    const original = `${student.first_name} ${student.last_name}`;
    const changedFirst = `${student.first_name}-Renamed`;
    const changed = `${changedFirst} ${student.last_name}`;
    const rename = async (to: string, expectedName: string) => {
      await dialog.getByRole("button", { name: "Edit Student" }).click();
      const form = dialog.getByRole("form", { name: "Edit student" });
      await visible(form);
      await expectNoSeriousA11yViolations(page, "the Edit Student form");
      await form.getByLabel("First name").fill(to);
      await form.getByRole("button", { name: "Save Changes" }).click();
      await form.waitFor({ state: "hidden" });
      await visible(page.getByRole("dialog", { name: expectedName }));
      await visible(page.getByRole("article", { name: expectedName, exact: true }));
    };
    try {
      await rename(changedFirst, changed);
      expect((await api<StudentRow>(`/students/${student.id}`)).body.first_name).toBe(changedFirst);
      dialog = page.getByRole("dialog", { name: changed });
      await rename(student.first_name, original);
      dialog = page.getByRole("dialog", { name: original });
      expect((await api<StudentRow>(`/students/${student.id}`)).body.first_name).toBe(student.first_name);
      await expect.poll(() => page.getByRole("article", { name: changed, exact: true }).count()).toBe(0);
    } finally {
      const now = (await api<StudentRow>(`/students/${student.id}`)).body;
      if (now.first_name !== student.first_name) {
        await page.context().request.put(`/api/students/${student.id}`, {
          headers: { Authorization: `Bearer ${token}` },
          data: { first_name: student.first_name },
        });
      }
    }
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
  });
});

