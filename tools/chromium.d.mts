import type { Browser } from "playwright-core";

/** Debian's Chromium, headless, with the flags this closed network needs; a fresh profile each time. */
export function launchBrowser(): Promise<Browser>;
