import { test } from "vitest";
import { settled, launchBrowser, newContext, signIn, waitForPath, expectTitle } from "./browser";
test("probe", async () => {
  const browser = await launchBrowser();
  const page = await (await newContext(browser)).newPage();
  await signIn(page, "admin");
  await waitForPath(page, "/dashboard");
  await expectTitle(page, "Admin Dashboard");
  await settled(page);
  const html = await page.evaluate(() => [...document.querySelectorAll('[aria-hidden="true"]')].filter(e => e.querySelector('a,button,input,select,textarea,[tabindex]')).map(e => e.outerHTML.slice(0, 800)));
  console.log(html.join("\n-----\n"));
  await page.screenshot({ path: "/work/main/.tmp/screens/probe-admin.png", fullPage: true });
  await browser.close();
});
