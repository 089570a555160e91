import { describe, expect, test } from "vitest";
import { expectTitle, settled, visible } from "./browser";
import { openSignedIn, useSignedInPage } from "./journey-setup";
import { cardNames } from "./dashboards-page";
import { ADMIN, SCHOOL } from "./demo-accounts";

// Issue 32: a school user opens a student; the admin then sees that read in the student's Access tab.

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
  });
});
