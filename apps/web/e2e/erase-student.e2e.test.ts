import { describe, expect, test } from "vitest";
import { expectTitle, settled, visible } from "./browser";
import { useSignedInPage } from "./journey-setup";
import { cardNames } from "./dashboards-page";
import { ADMIN } from "./demo-accounts";

// Issue 32: an admin erases a student from the student detail; the student is gone from the dashboard.

const admin = useSignedInPage(ADMIN);

describe("erasing a student", () => {
  test("the admin erases a student, forcing it if the cohort runs, and the dashboard no longer finds them", async () => {
    const { page } = admin;
    await page.goto(`${ADMIN.home}?cohort=all`);
    await expectTitle(page, ADMIN.title);
    await expect.poll(() => cardNames(page), { timeout: 15_000 }).not.toEqual([]);
    // The last card: the journeys that follow read the first ones.
    const name = (await cardNames(page)).at(-1)!;
    await page.getByRole("button", { name: `View Details for ${name}`, exact: true }).click();
    const detail = await visible(page.getByRole("dialog", { name }));
    await detail.getByRole("button", { name: "Erase student" }).click();
    const dialog = await visible(page.getByRole("dialog", { name: "Erase student" }));
    for (const what of ["attendance", "alerts", "advisor notes"]) await visible(dialog.getByText(what, { exact: true }));
    await dialog.getByLabel("Reason").fill("Journey: the family asked");
    await page.screenshot({ path: "/tmp/p32-erase-dialog.png" });
    await dialog.getByRole("button", { name: "Erase student" }).click();
    // A student of a running cohort is refused until forced.
    const force = dialog.getByLabel("Erase although the student is in a running cohort");
    await expect.poll(async () => (await force.count()) > 0 || !(await detail.isVisible()), { timeout: 15_000 }).toBe(true);
    if ((await force.count()) > 0) {
      await page.screenshot({ path: "/tmp/p32-erase-running.png" });
      await force.check();
      await dialog.getByRole("button", { name: "Erase student" }).click();
    }
    await expect.poll(() => detail.isVisible(), { timeout: 15_000 }).toBe(false);

    await page.goto(`${ADMIN.home}?cohort=all&q=${encodeURIComponent(name)}`);
    await settled(page);
    await expect.poll(() => cardNames(page), { timeout: 15_000 }).not.toContain(name);
  });
});
