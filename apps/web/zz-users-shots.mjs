import { chromium } from "playwright-core";

const BASE = "http://127.0.0.1:3901";
const OUT = "/work/main/.tmp/screens";
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

async function session(width, login) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${BASE}/login`);
  await page.getByLabel("Username or Email").fill(login);
  await page.getByLabel("Password", { exact: true }).fill("Demo-Passw0rd!");
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(/dashboard/);
  return { context, page };
}

const shot = (page, name, full = true) => page.screenshot({ path: `${OUT}/users-${name}.png`, fullPage: full });
const settle = (page) => page.waitForTimeout(400);

for (const width of [1280, 390]) {
  const { context, page } = await session(width, "superadmin");
  await page.goto(`${BASE}/users`);
  await page.getByTestId("user-row-regional").waitFor();
  await shot(page, `page-${width}`);
  await page.getByTestId("user-row-regional").getByRole("button", { name: /more/ }).click();
  await shot(page, `page-expanded-schools-${width}`);

  await page.getByRole("button", { name: "Add User" }).click();
  await page.getByRole("dialog").waitFor();
  await page.getByLabel(/^Role/).selectOption("district_user");
  await settle(page);
  await shot(page, `modal-create-${width}`, false);
  await page.getByRole("button", { name: "Create User" }).click();
  await settle(page);
  await shot(page, `modal-create-errors-${width}`, false);
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await settle(page);

  await page.getByRole("button", { name: "Deactivate teacher1", exact: true }).click();
  await settle(page);
  await shot(page, `modal-confirm-${width}`, false);
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await settle(page);

  await page.getByTestId("user-row-regional").getByRole("button", { name: "Manage Schools" }).click();
  await page.getByText("Manage School Access for regional").waitFor();
  await settle(page);
  await shot(page, `modal-school-access-${width}`, false);
  await page.keyboard.press("Escape");
  await settle(page);

  await page.goto(`${BASE}/admin/settings`);
  await page.getByRole("button", { name: /User Management/ }).click();
  await page.getByTestId("active-users-count").waitFor();
  await settle(page);
  await shot(page, `settings-${width}`);
  await page.getByTestId("user-item-regional").getByRole("button").first().click();
  await settle(page);
  await page.getByTestId("user-item-school").getByRole("button").first().click();
  await settle(page);
  await shot(page, `settings-expanded-${width}`);
  await page.getByRole("button", { name: /Inactive Users/ }).click();
  await settle(page);
  await shot(page, `settings-inactive-${width}`);

  const school = page.getByTestId("user-item-school");
  for (const [action, name] of [
    ["Login History", "login-history"],
    ["Reset Password", "reset-password"],
    ["Edit", "edit"],
    ["Manage", "school-assignment"],
  ]) {
    if (action === "Manage") await school.getByRole("button", { name: "Manage schools of school", exact: true }).click();
    else await school.getByRole("button", { name: action, exact: true }).click();
    await page.getByRole("dialog").waitFor();
    await page.waitForTimeout(700);
    await shot(page, `modal-${name}-${width}`, false);
    await page.keyboard.press("Escape");
    await settle(page);
  }
  await context.close();
}

// An admin looking at a super admin row and their own row.
{
  const { context, page } = await session(1280, "admin");
  await page.goto(`${BASE}/users`);
  await page.getByTestId("user-row-superadmin").waitFor();
  await shot(page, "page-as-admin-1280");
  await context.close();
}
await browser.close();
