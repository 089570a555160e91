import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { inject } from "vitest";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** Debian's Chromium, with the flags this closed network needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export const baseUrl = () => inject("baseUrl");
export const demoPassword = () => inject("demoPassword");

export async function newContext(browser: Browser, width = 1280, height = 800): Promise<BrowserContext> {
  return browser.newContext({ baseURL: baseUrl(), viewport: { width, height } });
}

/** Signs in through the form, as a person does. */
export async function signIn(page: Page, login: string, password = demoPassword()): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Username or Email").fill(login);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** Runs axe-core on the page; returns the serious and critical violations. */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe.run(document, {
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Messages the server sent to the local SMTP server, newest last. */
export function sentMail(): Array<{ to: string; raw: string }> {
  return JSON.parse(readFileSync(inject("mailFile"), "utf8"));
}

/** The first link in an e-mail's raw text that starts with the given path. */
export function linkFromMail(raw: string, path: string): string {
  // Quoted-printable soft line breaks would cut the link; undo them first.
  const text = raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  const match = text.match(new RegExp(`https?://[^\\s"<>]*${path.replace(/[/?]/g, "\\$&")}[^\\s"<>]*`));
  if (!match) throw new Error(`No ${path} link in the e-mail:\n${raw}`);
  return match[0];
}
