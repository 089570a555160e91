import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { type ContextOptions, launchBrowser, newContext, type SessionState, signedInState } from "./browser";
import type { DemoAccount } from "./demo-accounts";

// The set-up every journey file shares: one Chromium for the file, an account signed in once
// and its session reused (signing in is what sign-in.e2e.test.ts tests, not every file).

/**
 * The sample week's report files (and expected.json), one copy for the server's tests and the
 * journeys: apps/server/test/fixtures/week3.
 */
export const WEEK3_FIXTURES = new URL("../../server/test/fixtures/week3/", import.meta.url).pathname;

/** The access token a signed-in session keeps in localStorage, for calling the API as its user. */
export function tokenOf(state: SessionState): string {
  const token = state.origins.flatMap((o) => o.localStorage).find((e) => e.name === "tally.token")?.value;
  if (!token) throw new Error("The session holds no access token");
  return token;
}

/** One account signed in: its session (to open more contexts as it), its token, a context and a page. */
export interface SignedIn {
  session: SessionState;
  token: string;
  context: BrowserContext;
  page: Page;
}

/** Signs `account` in once and opens a page in a new context with that session. */
export async function openSignedIn(browser: Browser, account: DemoAccount, options: Omit<ContextOptions, "storageState"> = {}): Promise<SignedIn> {
  const session = await signedInState(browser, account.username, account.home);
  const context = await newContext(browser, { ...options, storageState: session });
  return { session, token: tokenOf(session), context, page: await context.newPage() };
}

/**
 * The file's Chromium, launched before its first test and closed (with every context in it)
 * after its last; call it at the top of the file. The returned function gives the browser.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("The browser is launched in beforeAll: use it inside hooks and tests");
    return browser;
  };
}

/**
 * The usual journey set-up, at the top of a file: the file's Chromium, `account` signed in
 * once, and a page with that session (`options`: its viewport). The fields are filled before
 * the file's first test; `browser()` opens more contexts (other accounts: openSignedIn).
 * The file's own afterAll hooks run before the browser closes.
 */
export function useSignedInPage(account: DemoAccount, options: Omit<ContextOptions, "storageState"> = {}): SignedIn & { browser: () => Browser } {
  const browser = useBrowser();
  const signedIn = { browser } as SignedIn & { browser: () => Browser };
  beforeAll(async () => {
    Object.assign(signedIn, await openSignedIn(browser(), account, options));
  });
  return signedIn;
}
