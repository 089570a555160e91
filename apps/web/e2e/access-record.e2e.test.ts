import { readFileSync } from "node:fs";
import { studentExportSchema } from "@tally/contract";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, test } from "vitest";
import { expectTitle, settled, visible } from "./browser";
import { openSignedIn, useSignedInPage } from "./journey-setup";
import { cardNames } from "./dashboards-page";
import { ADMIN, SCHOOL } from "./demo-accounts";

// Issue 32: a school user opens a student; the admin then sees that read in the student's Access
// tab, exports the student's data and sees the export listed too.

const admin = useSignedInPage(ADMIN);

describe("the record of access", () => {
  test("the admin's Access tab shows the school user's view of the student", async () => {
    const school = await openSignedIn(admin.browser(), SCHOOL);
    await school.page.goto(SCHOOL.home);
    await expectTitle(school.page, SCHOOL.title);
    await expect.poll(() => cardNames(school.page), { timeout: 15_000 }).not.toEqual([]);
    const name = (await cardNames(school.page))[0]!;
    await school.page.getByRole("button", { name: `View Details for ${name}`, exact: true }).click();
    const schoolDialog = await visible(school.page.getByRole("dialog", { name }));
    // The school user has no Access tab.
    await visible(schoolDialog.getByRole("tab", { name: "Overview" }));
    expect(await schoolDialog.getByRole("tab", { name: "Access" }).count()).toBe(0);
    await school.context.close();

    const { page } = admin;
    await page.goto(`${ADMIN.home}?cohort=all&q=${encodeURIComponent(name)}`);
    await expectTitle(page, ADMIN.title);
    await settled(page);
    await page.getByRole("button", { name: `View Details for ${name}`, exact: true }).click();
    const dialog = await visible(page.getByRole("dialog", { name }));
    await dialog.getByRole("tab", { name: "Access" }).click();
    const row = dialog.getByRole("row").filter({ hasText: SCHOOL.username }).first();
    await visible(row);
    expect(await row.textContent()).toContain("Viewed");
    expect(await row.textContent()).toContain("School User");
    await page.screenshot({ path: "/tmp/p32-access-tab.png" });

    // The student's own export: a ZIP of everything about them, which the record then lists.
    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 35_000 }),
      dialog.getByRole("button", { name: "Export student's data" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Student-export-.+-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = unzipSync(new Uint8Array(readFileSync((await download.path()) as string)));
    expect(Object.keys(files)).toEqual(expect.arrayContaining(["summary.pdf", "student.json", "attendance_records.csv", "access_log.csv"]));
    const doc = studentExportSchema.parse(JSON.parse(strFromU8(files["student.json"] as Uint8Array)));
    expect(`${doc.student.first_name} ${doc.student.last_name}`).toBe(name);
    await visible(dialog.getByRole("row").filter({ hasText: "Student export" }).first());
    await page.screenshot({ path: "/tmp/p32-student-export.png" });
  });
});
