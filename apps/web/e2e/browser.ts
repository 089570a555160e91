import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page, Request } from "playwright-core";
import { expect, inject } from "vitest";

import { journeyServer } from "./journey-server";

export { launchBrowser } from "../../../tools/chromium.mjs";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** How long one step (a click's target appearing, a redirect) may take before it counts as broken. */
export const STEP_TIMEOUT_MS = 15_000;

export const baseUrl = () => journeyServer().baseUrl;
export const demoPassword = () => inject("demoPassword");

/** A signed-in session as signedInState() captures it: the access and refresh tokens in localStorage. */
export type SessionState = Exclude<BrowserContextOptions["storageState"], string | undefined>;

export interface ContextOptions {
  width?: number;
  height?: number;
  /** A signed-in session captured by signedInState(): the context starts signed in. */
  storageState?: SessionState;
  /** Another server than the worker's (a journey that stops and restarts its own). */
  baseUrl?: string;
}

/** Requests each context has in flight, so a page can be seen to have finished loading. */
const inFlight = new WeakMap<BrowserContext, number>();

export async function newContext(browser: Browser, opts: ContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: opts.baseUrl ?? baseUrl(),
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    storageState: opts.storageState,
  });
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(STEP_TIMEOUT_MS);
  inFlight.set(context, 0);
  // A live event stream never finishes; it is not "loading".
  const change = (by: number) => (request: Request) => {
    if (request.resourceType() !== "eventsource") inFlight.set(context, (inFlight.get(context) ?? 0) + by);
  };
  context.on("request", change(1));
  context.on("requestfinished", change(-1));
  context.on("requestfailed", change(-1));
  return context;
}

/**
 * Waits until the page has nothing left to load: no request in flight and no spinner showing,
 * for a few checks in a row (one answer often triggers the next request).
 */
export async function settled(page: Page): Promise<void> {
  const context = page.context();
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  let quietChecks = 0;
  while (quietChecks < 3) {
    if (Date.now() > deadline) throw new Error(`${page.url()} kept loading for ${STEP_TIMEOUT_MS} ms`);
    const spinners = await page.locator(".mantine-Loader-root:visible").count();
    quietChecks = spinners === 0 && (inFlight.get(context) ?? 0) === 0 ? quietChecks + 1 : 0;
    await page.waitForTimeout(100); // the poll interval, not a wait for something to happen
  }
  await animationsSettled(page);
}

/** Signs in through the form, as a person does; does not wait for where it leads. */
export async function signIn(page: Page, login: string, password = demoPassword()): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Username or Email").fill(login);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

/** Waits until the page is on `path` (pathname only; query and hash ignored). */
export async function waitForPath(page: Page, path: string): Promise<void> {
  try {
    await page.waitForURL((url) => url.pathname === path, { timeout: STEP_TIMEOUT_MS, waitUntil: "commit" });
  } catch {
    throw new Error(`Expected to be on ${path}, but the page stayed on ${new URL(page.url()).pathname}`);
  }
}

/** Waits for the page's level-1 heading to read exactly `title`. */
export async function expectTitle(page: Page, title: string): Promise<void> {
  await visible(page.getByRole("heading", { level: 1, name: title, exact: true }));
}

/** Waits for the locator to be visible; fails with its description otherwise. */
export async function visible(locator: Locator): Promise<Locator> {
  await locator.waitFor({ state: "visible" });
  return locator;
}

/**
 * Signs in once in a throw-away context and returns the session (localStorage tokens), so a
 * file can open as many signed-in contexts as it likes without signing in again.
 */
export async function signedInState(browser: Browser, login: string, home: string): Promise<SessionState> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    await signIn(page, login);
    await waitForPath(page, home);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; summary: string }>;
}

/**
 * Waits for finite animations (modal fade-ins, transitions) to end: mid-fade text has too little
 * contrast and axe would report what no one sees for longer than a blink.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document
      .getAnimations()
      .filter((a) => a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/** Runs axe-core on the page; returns the serious and critical violations. */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  await settled(page);
  // Evaluated through the DevTools protocol, not as an inline <script>: the app's CSP forbids
  // inline scripts, and turning the CSP off (bypassCSP) would test a different page.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    type Result = {
      violations: Array<{
        id: string;
        impact: string | null;
        help: string;
        nodes: Array<{ target: string[]; failureSummary?: string }>;
      }>;
    };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<Result> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, summary: n.failureSummary ?? "" })),
    }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map((v) => {
      const nodes = v.nodes.map((n) => `    ${n.target.join(" ")}\n      ${n.summary.replace(/\n/g, "\n      ")}`);
      return `  [${v.impact}] ${v.id}: ${v.help}\n${nodes.join("\n")}`;
    })
    .join("\n");
}

/** Fails with the list of serious and critical axe-core violations when there are any. */
export async function expectNoSeriousA11yViolations(page: Page, what: string): Promise<void> {
  const violations = await seriousA11yViolations(page);
  expect(violations.map((v) => v.id), `Accessibility violations on ${what} (${page.url()}):\n${describeViolations(violations)}`).toEqual([]);
}

export interface SentMail {
  to: string;
  raw: string;
}

/** Messages the server sent to the local SMTP server, oldest first. */
export function sentMail(): SentMail[] {
  return JSON.parse(readFileSync(journeyServer().mailFile, "utf8"));
}

/** Waits for the next message to `to` after the first `after` ones; the server sends in the background. */
export async function nextMailTo(to: string, after: number): Promise<SentMail> {
  let found: SentMail | undefined;
  await expect
    .poll(
      () => {
        found = sentMail()
          .slice(after)
          .find((m) => m.to.toLowerCase() === to.toLowerCase());
        return found !== undefined;
      },
      { timeout: STEP_TIMEOUT_MS, interval: 100, message: `no e-mail to ${to} arrived` },
    )
    .toBe(true);
  return found as SentMail;
}

/** The first link in an e-mail's raw text that starts with the given path. */
export function linkFromMail(raw: string, path: string): string {
  // Quoted-printable soft line breaks would cut the link; undo them first.
  const text = raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  const match = text.match(new RegExp(`https?://[^\\s"<>]*${path.replace(/[/?]/g, "\\$&")}[^\\s"<>]*`));
  if (!match) throw new Error(`No ${path} link in the e-mail:\n${raw}`);
  return match[0];
}

/**
 * Asks for a reset link through the sign-in page's dialog, as a person does, and returns the
 * link from the e-mail that reached the SMTP server. Leaves the dialog showing its success text.
 */
export async function requestResetLink(page: Page, email: string): Promise<string> {
  const before = sentMail().length;
  await page.goto("/login");
  await page.getByRole("button", { name: "Forgot your password?" }).click();
  const dialog = await visible(page.getByRole("dialog", { name: "Reset Password" }));
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByRole("button", { name: "Send Reset Link" }).click();
  await visible(
    dialog.getByText("If an account exists with this email, you will receive password reset instructions shortly."),
  );
  const mail = await nextMailTo(email, before);
  return linkFromMail(mail.raw, "/set-password");
}
