import { chromium } from "playwright-core";
import { mkdtempSync } from "node:fs";
const base = "http://127.0.0.1:47391";
const [,, path = "/dashboard", out = "/tmp/dash/shots/a.png", width = "1280", full = "1"] = process.argv;
const dir = mkdtempSync("/tmp/dash/ud-");
const ctx = await chromium.launchPersistentContext(dir, { executablePath: "/usr/bin/chromium", viewport: { width: Number(width), height: 900 },
  args: ["--no-sandbox","--disable-gpu","--disable-quic","--no-first-run","--disable-background-networking","--disable-component-update","--disable-sync"] });
const page = await ctx.newPage();
await page.goto(base + "/login");
await page.getByLabel(/username|login/i).first().fill("admin");
await page.getByLabel(/password/i).first().fill("Demo-Passw0rd!");
await page.getByRole("button", { name: /sign in/i }).click();
await page.waitForURL(/dashboard/);
await page.goto(base + path);
await page.waitForTimeout(4000);
await page.screenshot({ path: out, fullPage: full === "1" });
console.log(page.url());
await ctx.close();
