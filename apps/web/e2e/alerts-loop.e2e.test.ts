import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { type AlertsServer, nextMessageTo, readableText, sessionOn, useAlertsJourney } from "./alerts-journey-server";
import { ADVISOR_DATE, dayMonth, importWeekAsNewCohort, MENTOR_DATE, MISSED_BOTH, writeWeekFiles } from "./alerts-journey-week";
import { expectTitle, newContext, settled, visible, waitForPath } from "./browser";
import { ADMIN, SUPER_ADMIN } from "./demo-accounts";
import { DEMO_PASSWORD } from "./global-setup";
import { useBrowser } from "./journey-setup";

// Issue 30's "Done when", end to end on a server of its own: the programme sends the digest right
// after each import; an admin imports last week of a cohort that runs now, in which two students
// missed both meetings; the school's coordinator sees the dashboard card and the call list,
// acknowledges one alert, resolves it with a note on the student's Follow-up tab, finds the note's
// mark on the Attendance tab's by-week view, and has had the digest, naming the missed dates,
// delivered to a real SMTP server. The tests run in order and share the tabs.

const SCHOOL_NAME = "Harbour View School";
const COHORT = "Harbour Internship";
const COORDINATOR = { username: "harbour-coordinator", email: "harbour-coordinator@tally.demo", password: "Harbour-Lantern-42!" };
const SHOTS = "/tmp/";

const browser = useBrowser();
const journey = useAlertsJourney();
const { contexts } = journey;
let server: AlertsServer;
let files: Record<string, string>;
let admin: Page;
let coordinator: Page;
let schoolId: number;
let mailBeforeImport = 0;

async function api<T>(path: string, body: unknown, token?: string): Promise<{ status: number; json: T }> {
  const res = await fetch(`${server.baseUrl}/api${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as T };
}

async function pageAs(login: string, home: string, password = DEMO_PASSWORD): Promise<Page> {
  const session = await sessionOn(browser(), server.baseUrl, login, home, password);
  const context = await newContext(browser(), { baseUrl: server.baseUrl, storageState: session, height: 900 });
  contexts.push(context);
  return context.newPage();
}

beforeAll(async () => {
  server = journey.server();
  files = writeWeekFiles(journey.filesDir(), SCHOOL_NAME);
  admin = await pageAs(ADMIN.username, ADMIN.home);
});

const alertRules = (page: Page): Locator => page.getByRole("region", { name: "Alert Rules", exact: true });
const alertRow = (page: Page, student: string, rule: string): Locator =>
  page.getByTestId("alert-row").filter({ hasText: student }).filter({ hasText: rule });

describe("early warning, from an import to the digest", () => {
  test("an admin sets the digest to go out right after each import", async () => {
    await admin.goto("/admin/settings");
    await expectTitle(admin, "Admin Settings");
    const section = await visible(alertRules(admin));
    await section.getByLabel("Weekly digest is sent").selectOption({ label: "Right after each import" });
    await section.getByRole("button", { name: "Save alert rules" }).click();
    await visible(section.getByText("Alert rules saved."));

    // The school and its coordinator, made after the setting, so the import's digest is their
    // first: a server started mid-week sends that week's Monday digest a minute after start-up,
    // claiming the week of every user it has then (an empty week included: no second mail).
    const { json: login } = await api<{ token: string }>("/auth/login", { login: SUPER_ADMIN.username, password: DEMO_PASSWORD });
    const school = await api<{ data: { id: number } }>("/schools", { name: SCHOOL_NAME, district: "Harbour" }, login.token);
    expect(school.status).toBe(201);
    schoolId = school.json.data.id;
    const user = await api("/auth/register", { ...COORDINATOR, role: "school_user", school_id: schoolId }, login.token);
    expect(user.status, JSON.stringify(user.json)).toBe(201);
  });

  test("the admin imports last week as a new cohort that runs now", async () => {
    const banner = await importWeekAsNewCohort(admin, files, COHORT, () => {
      mailBeforeImport = server.mail.length;
    });
    expect(banner).toContain(`Week 2 of ${COHORT} imported: 40 students (40 new)`);
  });

  test("the school's coordinator sees the Needs attention card, and the card opens the list", async () => {
    const home = `/school/${schoolId}/dashboard`;
    coordinator = await pageAs(COORDINATOR.username, home, COORDINATOR.password);
    await coordinator.goto(home);
    await expectTitle(coordinator, `${SCHOOL_NAME} Dashboard`);
    const card = await visible(coordinator.getByTestId("stat-needs-attention"));
    const shown = Number(((await card.textContent()) ?? "").replace(/\D/g, ""));
    expect(shown, "the card counts the students raised").toBeGreaterThanOrEqual(MISSED_BOTH.length);
    await card.click();
    await waitForPath(coordinator, "/alerts");
    await expectTitle(coordinator, "Needs attention");
    await settled(coordinator);
    for (const student of MISSED_BOTH) {
      const row = await visible(alertRow(coordinator, student, "Consecutive misses"));
      expect(await row.textContent()).toContain(`Missed 2 meetings in a row: mentor ${dayMonth(MENTOR_DATE)}, advisor ${dayMonth(ADVISOR_DATE)}`);
    }
    // Only this school's students: the demo schools' alerts are someone else's.
    expect(await coordinator.getByTestId("alert-row").filter({ hasText: "Northgate High School" }).count()).toBe(0);
    await coordinator.screenshot({ path: `${SHOTS}alerts-loop-list.png`, animations: "disabled" });
  });

  test("the coordinator acknowledges Fatima's alert from the list", async () => {
    const row = alertRow(coordinator, "Fatima Rodríguez", "Consecutive misses");
    await row.getByRole("checkbox", { name: "Select Fatima Rodríguez: Consecutive misses" }).check();
    await coordinator.getByRole("button", { name: "Acknowledge selected (1)" }).click();
    await visible(coordinator.getByRole("status").getByText("1 acknowledged."));
    await expect.poll(() => row.textContent()).toContain("Acknowledged");
  });

  test("the student's name opens the Follow-up tab, where the alert is resolved with a note", async () => {
    await alertRow(coordinator, "Fatima Rodríguez", "Consecutive misses").getByRole("link", { name: "Fatima Rodríguez" }).click();
    const dialog = await visible(coordinator.getByRole("dialog"));
    expect(await dialog.getByRole("tab", { name: "Follow-up" }).getAttribute("aria-selected")).toBe("true");
    const alert = await visible(dialog.getByRole("article", { name: "Consecutive misses" }));
    expect(await alert.getByTestId("alert-state").textContent()).toBe("Acknowledged");
    await alert.getByRole("button", { name: "Resolve…" }).click();
    const note = "Called home: the bus route changed; a new pass is arranged.";
    await alert.getByLabel("Resolution note").fill(note);
    await alert.getByRole("button", { name: "Resolve", exact: true }).click();
    await expect.poll(() => alert.getByTestId("alert-state").textContent()).toBe("Resolved");
    const timeline = alert.getByRole("list", { name: "Timeline of Consecutive misses" });
    await visible(timeline.getByText(`Resolved by ${COORDINATOR.username} — “${note}”`, { exact: false }));
    await visible(timeline.getByText(`Acknowledged by ${COORDINATOR.username}`, { exact: false }));
  });

  test("the Attendance tab's by-week view marks this week with the follow-up note, after the missed week", async () => {
    const dialog = coordinator.getByRole("dialog");
    await dialog.getByRole("tab", { name: "Attendance" }).click();
    await dialog.getByText("By week", { exact: true }).click();
    const weeks = await visible(dialog.getByTestId("attendance-weeks"));
    const rows = weeks.getByTestId("attendance-week");
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).getByRole("cell").allTextContents()).toEqual([expect.stringContaining("Week 2"), "Absent", "Absent", ""]);
    expect(await rows.nth(1).getByRole("cell").allTextContents()).toEqual([
      expect.stringContaining("Week 3"),
      "No meeting",
      "No meeting",
      "✎ Follow-up note",
    ]);
    await dialog.screenshot({ path: `${SHOTS}alerts-loop-by-week.png`, animations: "disabled" });
  });

  test("the digest reached the SMTP server right after the import, naming the missed dates", async () => {
    const mail = await nextMessageTo(server, COORDINATOR.email, mailBeforeImport);
    const text = readableText(mail.raw);
    expect(text).toMatch(/^Subject: Tally weekly digest: \d+ alerts? new or escalated$/m);
    expect(text).toContain(`== ${SCHOOL_NAME} ==`);
    for (const student of MISSED_BOTH) {
      expect(text).toContain(`* ${student} (${COHORT}): Consecutive misses, new `);
    }
    expect(text).toContain(`Missed 2 meetings in a row: mentor ${dayMonth(MENTOR_DATE)}, advisor ${dayMonth(ADVISOR_DATE)}`);
    expect(text).toContain(`${server.baseUrl}/dashboard?student=`);
    // The coordinator's scope only, and one digest only.
    expect(text).not.toContain("Northgate High School");
    const digests = server.mail.filter((m) => m.to === COORDINATOR.email && readableText(m.raw).includes("Subject: Tally weekly digest"));
    expect(digests).toHaveLength(1);
  });
});
