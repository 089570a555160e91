import { readFile } from "node:fs/promises";
import { LIMITS } from "@tally/contract";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import {
  baseUrl,
  expectNoSeriousA11yViolations,
  expectTitle,
  linkFromMail,
  newContext,
  nextMailTo,
  sentMail,
  settled,
  signIn,
  STEP_TIMEOUT_MS,
  visible,
  waitForPath,
} from "./browser";
import { useSignedInPage } from "./journey-setup";
import { apiAs } from "./dashboards-page";
import { ADMIN } from "./demo-accounts";

// One account's life, as an admin runs it: created, edited, given other schools, deactivated,
// reactivated, and its sign-ins read back. The tests run in order and share the admin's tab.
const USERNAME = "lakesdistrict";
const FIRST_EMAIL = "lakes.district@tally.demo";
const NEW_EMAIL = "lakes.office@tally.demo";
const FIRST_SCHOOLS = ["Eastside STEM Academy", "Harbor View Academy", "Riverbend High School"];
const AFTER_ACCESS_CHANGE = ["Eastside STEM Academy", "Lakeshore High School", "Oak Valley High School", "Riverbend High School"];
/**
 * The schools an admin may hand out (the demo data's 13, less the hidden demo school), read
 * from the server: another journey may have added a school before this file runs.
 */
let SCHOOL_COUNT = 12;
/** A user agent that a spreadsheet would run as a formula if the export let it through. */
const HOSTILE_USER_AGENT = '=HYPERLINK("http://x")';

const admin = useSignedInPage(ADMIN);
/** The new user's own browser, signed in with the password the admin handed over. */
let districtPage: Page;
let password = "";

beforeAll(async () => {
  SCHOOL_COUNT = (await apiAs(admin.context, admin.token)<{ data: unknown[] }>("/schools")).body.data.length;
});

async function openUsersPage(): Promise<void> {
  await admin.page.goto("/users");
  await expectTitle(admin.page, "User Management");
  await visible(admin.page.getByRole("table", { name: "Users" }));
}

const userRow = (): Locator => admin.page.getByTestId(`user-row-${USERNAME}`);
const cell = (row: Locator, index: number): Locator => row.getByRole("cell").nth(index);
/** The columns of the users table. */
const [USER, ROLE, SCHOOL, STATUS] = [0, 1, 2, 3];
/** The page's success banner text; a banner clears itself after 3 s, so an earlier one may still show. */
const bannerText = async (): Promise<string | undefined> =>
  (await admin.page.getByTestId("success-banner").allTextContents())[0]?.trim();

/**
 * Narrows the users table to this file's account (the table pages ten at a time, and other
 * journeys add accounts) and returns its row.
 */
async function findUser(): Promise<Locator> {
  await admin.page.getByLabel("Search users").fill(USERNAME);
  const row = await visible(userRow());
  await settled(admin.page);
  return row;
}

/** Opens the one user screen at this account and clicks one of its row's actions. */
async function userAction(label: string, dialogName: string): Promise<Locator> {
  await openUsersPage();
  const row = await findUser();
  await row.getByRole("group", { name: `Actions for ${USERNAME}` }).getByRole("button", { name: `${label} ${USERNAME}` }).click();
  return visible(admin.page.getByRole("dialog", { name: dialogName }));
}

/**
 * Scans the page as it looks at rest: the pointer is moved off whatever it was left over after
 * the last click, so a hover colour does not stand in for the real one.
 */
async function scan(what: string): Promise<void> {
  await admin.page.mouse.move(0, 0);
  await expectNoSeriousA11yViolations(admin.page, what);
}

async function signInFails(page: Page, withPassword: string): Promise<void> {
  await signIn(page, USERNAME, withPassword);
  const error = await visible(page.getByTestId("login-error"));
  expect((await error.textContent())?.trim()).toBe("Invalid credentials");
  expect(new URL(page.url()).pathname).toBe("/login");
}

/** Picks a school in the Create dialog's multi-select by typing part of its name. */
async function pickSchool(dialog: Locator, name: string): Promise<void> {
  const input = dialog.getByLabel(/^Schools/);
  await input.click();
  await input.fill(name.split(" ")[0] ?? name);
  await admin.page.getByRole("option", { name, exact: true }).click();
}

/** Parses RFC 4180 text strictly: CRLF after every record, quotes doubled inside quoted fields. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let closed = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else {
        quoted = false;
        closed = true;
      }
    } else if (ch === '"') {
      if (field !== "" || closed) throw new Error(`A quote inside an unquoted field at ${i}`);
      quoted = true;
    } else if (ch === ",") {
      record.push(field);
      field = "";
      closed = false;
    } else if (ch === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      closed = false;
      i += 1;
    } else if (closed || ch === "\r" || ch === "\n") {
      throw new Error(`Unexpected ${JSON.stringify(ch)} at ${i}`);
    } else {
      field += ch;
    }
  }
  if (quoted || field !== "" || record.length > 0) throw new Error("The last record does not end with CRLF");
  return records;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The local date, as the export names its file. */
function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

describe("the admin navigation", () => {
  test("the weekly import is one click from the dashboard, and Users one click from any admin screen", async () => {
    await admin.page.goto("/dashboard");
    await admin.page.getByRole("link", { name: "Import week" }).click();
    const dialog = await visible(admin.page.getByRole("dialog", { name: /Import/ }));
    await waitForPath(admin.page, "/admin/settings");
    await admin.page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    const nav = admin.page.getByRole("navigation", { name: "Admin" });
    expect(await nav.getByRole("link").allTextContents()).toEqual(["Dashboard", "Import week", "Users", "Schools & cohorts", "Settings"]);
    await nav.getByRole("link", { name: "Users" }).click();
    await waitForPath(admin.page, "/users");
    await expectTitle(admin.page, "User Management");
    // The settings page no longer holds a second user list.
    await admin.page.goto("/admin/settings");
    await expectTitle(admin.page, "Admin Settings");
    await visible(admin.page.getByRole("heading", { name: "System Settings" }));
    expect(await admin.page.getByRole("button", { name: "User Management" }).count()).toBe(0);
  });
});

describe("an admin creates a district user", () => {
  test("Add User: fill in the form, keep the generated password, see it once on the success panel", async () => {
    await openUsersPage();
    await scan("the User Management page");
    await admin.page.getByRole("button", { name: "Add User" }).click();
    const dialog = await visible(admin.page.getByRole("dialog", { name: "Create New User" }));
    await dialog.getByLabel(/^Username/).fill(USERNAME);
    await dialog.getByLabel(/^Email/).fill(FIRST_EMAIL);
    await dialog.getByLabel(/^Role/).selectOption({ label: "District User" });
    await visible(dialog.getByLabel(/^Schools/));
    await scan("the Create New User form");

    for (const school of FIRST_SCHOOLS) await pickSchool(dialog, school);
    password = await dialog.getByLabel(/^Password/).inputValue();
    expect(password).toHaveLength(12);
    expect(await dialog.getByLabel(/^Confirm Password/).inputValue()).toBe(password);

    const mailsBefore = sentMail().length;
    await dialog.getByRole("button", { name: "Create User" }).click();
    await visible(dialog.getByText("User created successfully"));
    // The new person's mail: their username and how their password is set, never the password.
    const welcome = (await nextMailTo(FIRST_EMAIL, mailsBefore)).raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    expect(welcome).toContain(`Your username: ${USERNAME}`);
    expect(welcome).toContain("Forgot your password?");
    expect(welcome).not.toContain(password);
    const panel = dialog.getByTestId("created-user");
    const shown = Object.fromEntries(
      await Promise.all(
        (await panel.getByRole("row").all()).map(async (row) => [
          (await row.getByRole("rowheader").textContent())?.trim(),
          (await row.getByRole("cell").textContent())?.trim(),
        ]),
      ),
    );
    expect(shown).toEqual({ Username: USERNAME, Email: FIRST_EMAIL, Password: password });
    await scan("the Create New User success panel");

    await dialog.getByRole("button", { name: "Continue" }).click();
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(() => bannerText()).toBe("User created successfully");
  });

  test("the list shows the new user as District Admin with its three schools", async () => {
    const row = await findUser();
    // The user cell: username, e-mail and last sign-in.
    await visible(cell(row, USER).getByText(FIRST_EMAIL, { exact: true }));
    await visible(cell(row, USER).getByText("Last login: Never", { exact: true }));
    expect(await cell(row, ROLE).textContent()).toBe("District Admin");
    await visible(cell(row, SCHOOL).getByRole("button", { name: "Manage Schools" }));
    // Three names fit under the limit of five: all are listed and there is no "+N more..." toggle.
    await visible(cell(row, SCHOOL).getByText(FIRST_SCHOOLS.join(", "), { exact: true }));
    expect(await cell(row, SCHOOL).getByRole("button", { name: /more schools of/ }).count()).toBe(0);
    expect(await cell(row, STATUS).textContent()).toBe("Active");
  });

  test("the new user signs in with that password and sees a district dashboard of three schools", async () => {
    districtPage = await (await newContext(admin.browser())).newPage();
    // No notification stream for this tab: its FORCE_LOGOUT would end the session before the
    // profile check that this file follows (live-connection.e2e.test.ts covers the stream).
    await districtPage.route((url) => url.pathname.startsWith("/api/notifications"), (route) => route.abort());
    await signIn(districtPage, USERNAME, password);
    await waitForPath(districtPage, "/dashboard");
    await expectTitle(districtPage, "District Dashboard");
    await visible(districtPage.getByText("3 Schools Overview", { exact: true }));
  });
});

describe("editing the account", () => {
  test("the users table lists it; Edit User saves a new e-mail address", async () => {
    const dialog = await userAction("Edit", "Edit User");
    await scan("the Edit User dialog");
    const email = dialog.getByLabel(/^Email/);
    expect(await email.inputValue()).toBe(FIRST_EMAIL);
    await email.fill(NEW_EMAIL);
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await visible(dialog.getByText("User updated successfully!", { exact: true }));
    // It closes by itself shortly after, and the list shows the new address.
    await dialog.waitFor({ state: "hidden" });
    await visible(userRow().getByText(NEW_EMAIL).first());
  });

  test("Reset password asks first, naming the person, and passes axe", async () => {
    const dialog = await userAction("Reset password of", `Reset password for ${USERNAME}`);
    expect(await dialog.getByTestId("reset-confirm-text").textContent()).toBe(
      `Send ${USERNAME} a link at ${NEW_EMAIL} to choose a new password?`,
    );
    await scan("the Reset password dialog");
    await dialog.getByRole("button", { name: "Close" }).last().click();
    await dialog.waitFor({ state: "hidden" });
  });
});

describe("school access", () => {
  let expired: Promise<{ status: number; body: unknown }>;

  test("the panel removes schools, offers at most ten unselected others, adds schools found by search, and saves", async () => {
    await openUsersPage();
    await findUser();
    await cell(userRow(), SCHOOL).getByRole("button", { name: "Manage Schools" }).click();
    const dialog = await visible(admin.page.getByRole("dialog", { name: "School Access Management" }));
    await visible(dialog.getByRole("heading", { name: `Manage School Access for ${USERNAME}` }));
    const assigned = dialog.getByTestId("schools-assigned");
    const selected = dialog.getByTestId("selected-schools").getByRole("listitem");
    const suggestions = dialog.getByTestId("school-suggestions").getByRole("button");
    await expect.poll(() => assigned.textContent()).toBe("3 schools assigned");
    expect(await selected.allTextContents()).toEqual(FIRST_SCHOOLS.map((s) => `${s}×`));

    await dialog.getByRole("button", { name: "Remove Harbor View Academy" }).click();
    await expect.poll(() => assigned.textContent()).toBe("2 schools assigned");
    await expect.poll(() => suggestions.count()).toBe(Math.min(LIMITS.schoolAccessSuggestions, SCHOOL_COUNT - 2));
    // With one school left selected, the others are on offer: the first ten are listed, the rest counted.
    await dialog.getByRole("button", { name: "Remove Eastside STEM Academy" }).click();
    await expect.poll(() => assigned.textContent()).toBe("1 school assigned");
    await expect.poll(() => suggestions.count()).toBe(10);
    await visible(dialog.getByText(`${SCHOOL_COUNT - 1 - 10} more schools available. Refine your search.`, { exact: true }));
    const offered = (await suggestions.allTextContents()).map((t) => t.replace(/^\+ /, ""));
    expect(offered).not.toContain("Riverbend High School");
    expect(offered).toContain("Harbor View Academy");

    const search = dialog.getByPlaceholder("Search schools...");
    await search.fill("RIVERBEND");
    await visible(dialog.getByText("No more schools available", { exact: true }));
    await search.fill("eastside");
    await dialog.getByRole("button", { name: "Add Eastside STEM Academy" }).click();
    await expect.poll(() => assigned.textContent()).toBe("2 schools assigned");
    await search.fill("lake");
    await expect.poll(() => suggestions.allTextContents()).toEqual(["+ Lakeshore High School"]);
    await dialog.getByRole("button", { name: "Add Lakeshore High School" }).click();
    await search.fill("oak v");
    await dialog.getByRole("button", { name: "Add Oak Valley High School" }).click();
    await expect.poll(() => assigned.textContent()).toBe("4 schools assigned");
    await search.fill("");
    await scan("the School Access panel");

    // The district user's profile checks are watched from now on: the first refusal is kept.
    expired = new Promise((resolve) => {
      void districtPage.route("**/api/auth/profile", async (route) => {
        const response = await route.fetch();
        if (response.status() === 401) resolve({ status: 401, body: await response.json() });
        await route.fulfill({ response });
      });
    });
    await dialog.getByRole("button", { name: "Save Access" }).click();
    await visible(dialog.getByText("School access updated successfully!", { exact: true }));
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    await visible(cell(userRow(), SCHOOL).getByText(AFTER_ACCESS_CHANGE.join(", "), { exact: true }));
  });

  test("the district user's open session ends at its next check, with the administrator notice", async () => {
    // No reload: the open dashboard's own profile check (every 10 s) meets the refusal.
    await districtPage.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("session") === "expired", {
      timeout: 2 * LIMITS.profileCheckIntervalMs,
    });
    // The refusal was read before it reached the page, so it is in hand once the page has moved.
    const refused = await Promise.race([expired, Promise.resolve("no profile check was refused")]);
    expect(refused).toEqual({ status: 401, body: expect.objectContaining({ code: "SESSION_VERSION_MISMATCH" }) });
    const notice = await visible(districtPage.getByTestId("session-expired-notice"));
    expect((await notice.textContent())?.trim()).toBe(
      "Your account settings have been updated by an administrator. Please log in again.",
    );
    await districtPage.context().close();
  });

  test("more than five schools show the first five and a +N more... toggle", async () => {
    await cell(userRow(), SCHOOL).getByRole("button", { name: "Manage Schools" }).click();
    const dialog = await visible(admin.page.getByRole("dialog", { name: "School Access Management" }));
    const search = dialog.getByPlaceholder("Search schools...");
    for (const name of ["Jefferson Academy", "Pinecrest High School"]) {
      await search.fill(name);
      await dialog.getByRole("button", { name: `Add ${name}` }).click();
    }
    await dialog.getByRole("button", { name: "Save Access" }).click();
    await visible(dialog.getByText("School access updated successfully!", { exact: true }));
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });

    const all = [...AFTER_ACCESS_CHANGE, "Jefferson Academy", "Pinecrest High School"].sort();
    const names = cell(userRow(), SCHOOL).locator("div").filter({ hasText: all[0] as string }).last();
    const toggle = await visible(cell(userRow(), SCHOOL).getByRole("button", { name: `Show 1 more schools of ${USERNAME}` }));
    expect(await toggle.textContent()).toBe("+1 more...");
    await expect.poll(() => names.textContent()).toBe(`${all.slice(0, 5).join(", ")} +1 more...`);
    await toggle.click();
    await expect.poll(() => names.textContent()).toBe(`${all.join(", ")} Show less`);
  });
});

describe("deactivation and reactivation", () => {
  test("Deactivate asks first, then marks the account Inactive", async () => {
    await openUsersPage();
    await findUser();
    await userRow().getByRole("button", { name: `Deactivate ${USERNAME}` }).click();
    const dialog = await visible(admin.page.getByRole("dialog", { name: "Confirm Deactivation" }));
    expect(await dialog.getByTestId("confirm-text").textContent()).toBe(
      `Are you sure you want to deactivate user "${USERNAME}"? They will no longer be able to log in.`,
    );
    await scan("the Confirm Deactivation dialog");
    await dialog.getByRole("button", { name: "Deactivate", exact: true }).click();
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(() => bannerText()).toBe(`User ${USERNAME} has been deactivated successfully`);
    await expect.poll(() => cell(userRow(), STATUS).textContent()).toBe("Inactive");
    // A deactivated account cannot use a reset link: the row offers none.
    expect(await userRow().getByRole("button", { name: `Reset password of ${USERNAME}` }).count()).toBe(0);
  });

  test("the deactivated user can no longer sign in", async () => {
    const page = await (await newContext(admin.browser())).newPage();
    try {
      await signInFails(page, password);
    } finally {
      await page.context().close();
    }
  });

  test("Reactivate asks first, reactivates, and e-mails a reset link to the new address", async () => {
    await userRow().getByRole("button", { name: `Reactivate ${USERNAME}` }).click();
    const dialog = await visible(admin.page.getByRole("dialog", { name: "Confirm Reactivation" }));
    expect(await dialog.getByTestId("confirm-text").textContent()).toBe(
      `Are you sure you want to reactivate user "${USERNAME}"? A password reset will be sent and they will be able to log in again.`,
    );
    await scan("the Confirm Reactivation dialog");
    const before = sentMail().length;
    await dialog.getByRole("button", { name: "Reactivate", exact: true }).click();
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(() => bannerText()).toBe(
      `User ${USERNAME} has been reactivated successfully and a password reset has been sent`,
    );
    await expect.poll(() => cell(userRow(), STATUS).textContent()).toBe("Active");
    const mail = await nextMailTo(NEW_EMAIL, before);
    expect(new URLSearchParams(new URL(linkFromMail(mail.raw, "/set-password")).hash.slice(1)).get("token")).toMatch(/.{20,}/);
  });

  test("a wrong password from a browser with a formula for a user agent is refused", async () => {
    const context: BrowserContext = await admin.browser().newContext({ baseURL: baseUrl(), userAgent: HOSTILE_USER_AGENT });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    try {
      const page = await context.newPage();
      expect(await page.evaluate(() => navigator.userAgent)).toBe(HOSTILE_USER_AGENT);
      await signInFails(page, `${password}x`);
    } finally {
      await context.close();
    }
  });
});

describe("login history", () => {
  let dialog: Locator;
  const rows = () => dialog.getByRole("table", { name: `Login history of ${USERNAME}` }).getByRole("row");
  /** Status and Failure Reason of each shown attempt, newest first. */
  const outcomes = async () =>
    Promise.all(
      (await rows().all()).slice(1).map(async (r) => {
        const cells = await r.getByRole("cell").allTextContents();
        return `${cells[4]}/${cells[5]}`;
      }),
    );

  test("lists every sign-in attempt of the account, newest first", async () => {
    dialog = await userAction("Login history of", `Login History: ${USERNAME}`);
    // In words, never the stored codes.
    await expect.poll(outcomes).toEqual(["Failed/Wrong password", "Failed/Account deactivated", "Success/-"]);
    await visible(dialog.getByText("Showing 1-3 of 3", { exact: true }));
    await scan("the Login History dialog");
  });

  test("the Failed filter keeps only the refused attempts", async () => {
    await dialog.getByLabel("Status").selectOption({ label: "Failed" });
    await expect.poll(outcomes).toEqual(["Failed/Wrong password", "Failed/Account deactivated"]);
    await visible(dialog.getByText("Showing 1-2 of 2", { exact: true }));
  });

  test("Export CSV downloads the filtered rows as RFC 4180 text, with the formula neutralised", async () => {
    await settled(admin.page);
    const [download] = await Promise.all([
      admin.page.waitForEvent("download"),
      dialog.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`login_history_${USERNAME}_${today()}.csv`);
    const path = await download.path();
    const text = await readFile(path, "utf8");
    expect(text.endsWith("\r\n")).toBe(true);
    const [header, ...records] = parseCsv(text);
    expect(header).toEqual([
      "ID",
      "Date/Time (UTC)",
      "Method",
      "IP Address",
      "Browser",
      "User Agent",
      "Status",
      "Failure Reason",
    ]);
    expect(records).toHaveLength(2);
    for (const record of records) {
      expect(record).toHaveLength(8);
      expect(record[0]).toMatch(/^\d+$/);
      expect(Date.now() - Date.parse(record[1] as string)).toBeLessThan(10 * 60_000);
      expect(record.slice(2, 4)).toEqual(["username", "127.0.0.1"]);
      expect(record[6]).toBe("Failed");
      // No cell may start a formula (a plain negative number would be allowed; none is here).
      for (const value of record) expect(value).not.toMatch(/^[=+\-@\t\r]/);
    }
    const [hostile, inactive] = records as [string[], string[]];
    expect(hostile[7]).toBe("Wrong password");
    expect(hostile[5]).toBe(`'${HOSTILE_USER_AGENT}`);
    expect(text).toContain(`"'=HYPERLINK(""http://x"")"`);
    // A real browser's user agent holds commas and parentheses; it comes back whole.
    expect(inactive[7]).toBe("Account deactivated");
    expect(inactive[5]).toBe(await admin.page.evaluate(() => navigator.userAgent));
  });
});
