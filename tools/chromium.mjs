// One Chromium launch for the browser journeys (apps/web/e2e) and the bench: plain JavaScript
// at the root so both workspaces import it by relative path, the bench also from its build.
import { chromium } from "playwright-core";

/**
 * Debian's Chromium, headless, with the flags this closed network needs. Every launch gets a
 * fresh temporary user-data dir (playwright's default for launch()), so no profile carries over.
 */
export function launchBrowser() {
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
