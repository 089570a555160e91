import { describe, expect, test } from "vitest";
import { expectNoSeriousA11yViolations, expectTitle, settled, visible } from "./browser";
import { useSignedInPage } from "./journey-setup";
import { ADMIN } from "./demo-accounts";

// Issue 32: switching retention on shows what a run would remove before anything is saved.
// Nothing is saved here: the other journeys share this server and its students.

const admin = useSignedInPage(ADMIN);

describe("retention in Admin Settings", () => {
  test("switching retention on previews the count and names for the suggested years, and for other years", async () => {
    const { page } = admin;
    await page.goto("/admin/settings");
    await expectTitle(page, "Admin Settings");
    const section = await visible(page.getByRole("region", { name: "Privacy and retention" }));
    await section.getByRole("switch", { name: /Remove students after their last cohort/ }).click({ force: true });
    const years = section.getByRole("textbox", { name: /Years after the last cohort ended/ });
    expect(await years.inputValue()).toBe("3");
    const preview = await visible(section.getByRole("status", { name: "Retention preview" }));
    expect(await preview.textContent()).toMatch(/A run now would remove .*3 years ago/);
    await years.fill("1");
    await expect.poll(async () => (await preview.textContent()) ?? "", { timeout: 15_000 }).toMatch(/1 year ago/);
    await settled(page);
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: "/tmp/p32-retention-settings.png" });
    await expectNoSeriousA11yViolations(page, "Admin Settings with retention switched on");
  });
});
