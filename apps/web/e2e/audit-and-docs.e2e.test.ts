import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AUDIT_CSV_COLUMNS, AUDIT_CSV_FILE } from "@tally/contract";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { expectNoSeriousA11yViolations, expectTitle, settled, visible } from "./browser";
import { useSignedInPage } from "./journey-setup";
import { SUPER_ADMIN } from "./demo-accounts";

// A super admin opens the Audit Log from the admin navigation, narrows it to the student-data
// exports they just made and downloads that as CSV; an integrator opens the API reference.
// Nothing here changes data: the audited action is a CSV export of student data.

const superAdmin = useSignedInPage(SUPER_ADMIN);
let downloads: string;

beforeAll(() => {
  downloads = mkdtempSync(join(tmpdir(), "tally-audit-"));
});

afterAll(() => {
  if (downloads) rmSync(downloads, { recursive: true, force: true });
});

/** The values of a CSV line (the server quotes JSON cells; the ones read here hold no comma). */
const cells = (line: string) => line.split(",");

describe("Audit Log", () => {
  test("a super admin filters the log to their exports and downloads it as CSV", async () => {
    const { page, token } = superAdmin;
    // The audited action: a student-data export, as the dashboard's Export menu makes it.
    const exported = await page.context().request.get("/api/reports/students.csv", { headers: { Authorization: `Bearer ${token}` } });
    expect(exported.status()).toBe(200);

    await page.goto("/admin");
    await expectTitle(page, "Admin Area");
    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Audit log", exact: true }).click();
    await expectTitle(page, "Audit Log");
    const table = await visible(page.getByRole("table", { name: "Audit log" }));
    await settled(page);
    await expectNoSeriousA11yViolations(page, "the Audit Log page");

    await page.getByLabel("Who").selectOption({ label: SUPER_ADMIN.username });
    await page.getByLabel("Action").selectOption("export.csv");
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel("From").fill(today);
    await page.getByLabel("To").fill(today);
    await settled(page);
    const rows = table.locator("tbody tr");
    expect(await rows.count()).toBeGreaterThan(0);
    for (const row of await rows.all()) {
      await expect.poll(() => row.locator("td").nth(1).textContent()).toBe(SUPER_ADMIN.username);
      // In words, not codes (issue 29); the CSV below keeps the codes for spreadsheets.
      expect(await row.locator("td").nth(3).textContent()).toBe("Exported students as CSV");
      expect(await row.locator("td").nth(4).textContent()).toBe("Student data");
      expect(await row.locator("td").nth(5).textContent()).toContain("Format: csv");
    }
    // The address column shows where the export came from (the browser's loopback address).
    expect(await rows.first().locator("td").nth(2).textContent()).toMatch(/127\.0\.0\.1|::1|::ffff:127\.0\.0\.1/);

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).toBe(AUDIT_CSV_FILE);
    const path = join(downloads, download.suggestedFilename());
    await download.saveAs(path);
    const text = readFileSync(path, "utf8");
    expect(text.startsWith("\uFEFF")).toBe(true);
    const lines = text.slice(1).trimEnd().split("\r\n");
    expect(lines[0]).toBe(AUDIT_CSV_COLUMNS.join(","));
    expect(lines.length - 1).toBe(await rows.count());
    for (const line of lines.slice(1)) {
      expect(cells(line)[1]).toBe(SUPER_ADMIN.username);
      expect(cells(line)[3]).toBe("export.csv");
    }
  });
});

describe("API reference", () => {
  test("/api/docs lists the routes, rendered under its own content security policy", async () => {
    const { page } = superAdmin;
    const refused: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
    });
    await page.goto("/admin");
    await expectTitle(page, "Admin Area");
    const [response] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === "/api/docs"),
      page.getByRole("link", { name: "API Reference" }).click(),
    ]);
    expect(response.status()).toBe(200);
    await visible(page.getByRole("heading", { name: /Tally API/ }));
    for (const path of ["/api/auth/login", "/api/audit", "/api/reports/students.csv"]) {
      await visible(page.locator(".opblock-summary-path", { hasText: new RegExp(`^${path.replaceAll("/", "\\/").replaceAll(".", "\\.")}$`) }).first());
    }
    // Guarded routes show the lock of the bearer scheme; the Authorize button sets the token.
    await visible(page.getByRole("button", { name: /Authorize/ }));
    expect(refused).toEqual([]);
  });
});
