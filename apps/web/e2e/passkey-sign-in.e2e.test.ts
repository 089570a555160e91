import type { CDPSession, Page } from "playwright-core";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { demoPassword, expectTitle, newContext, settled, signIn, visible, waitForPath } from "./browser";
import { SUPER_ADMIN } from "./demo-accounts";
import { useBrowser } from "./journey-setup";
import { type StoppableServer, startStoppableServer } from "./stoppable-server";

// One admin's passkey: added from the two-step page with Chromium's virtual authenticator (the
// DevTools WebAuthn domain), then, after signing out, the sign-in finished with it instead of a
// code. A passkey's relying party is a domain name, never an address, so this journey runs its
// own server at http://localhost:<port> (APP_URL), where the workers' are at 127.0.0.1.

const browser = useBrowser();
let own: StoppableServer;
const USERNAME = `passkey-${process.pid}`;
const PASSWORD = "Quartz-Heron-Lantern-73";
let secret = "";
let credential: Record<string, unknown> | undefined;
let superAdminToken = "";

const code = (offsetSteps = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), period: 30, timestamp: Date.now() + offsetSteps * 30_000 });

async function api<T>(path: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(new URL(`/api${path}`, own.baseUrl), {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body ?? {}),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A page with a virtual platform authenticator (user verification always succeeds). */
async function pageWithAuthenticator(): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string }> {
  const context = await newContext(browser(), { baseUrl: own.baseUrl });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { page, cdp, authenticatorId };
}

beforeAll(async () => {
  own = await startStoppableServer({ host: "localhost" });
  const admin = await api<{ token: string }>("/auth/login", { login: SUPER_ADMIN.username, password: demoPassword() });
  superAdminToken = admin.token;
  await api("/auth/register", { username: USERNAME, email: `${USERNAME}@tally.demo`, role: "admin", password: PASSWORD }, admin.token);
  // The authenticator app is set up through the API (its own journey covers the page).
  const { token } = await api<{ token: string }>("/auth/login", { login: USERNAME, password: PASSWORD });
  await api("/auth/mfa/reauth", { password: PASSWORD }, token);
  secret = (await api<{ secret: string }>("/auth/mfa/totp/enroll", {}, token)).secret;
  await api("/auth/mfa/totp/confirm", { code: code() }, token);
}, 180_000);

afterAll(async () => {
  await own?.close();
});

describe("passkey sign-in", () => {
  test("a passkey is added from the two-step page, then finishes a sign-in instead of the code", async () => {
    const first = await pageWithAuthenticator();
    await signIn(first.page, USERNAME, PASSWORD);
    // No passkey yet: only the code is offered.
    const field = await visible(first.page.getByLabel("Enter the 6-digit code"));
    expect(await first.page.getByRole("button", { name: "Use a passkey" }).count()).toBe(0);
    await field.fill(code(1));
    await first.page.getByRole("button", { name: "Verify" }).click();
    await waitForPath(first.page, "/dashboard");

    await first.page.goto("/account/two-step");
    await expectTitle(first.page, "Two-step sign-in");
    await first.page.getByRole("button", { name: "Add a passkey" }).click();
    // Adding a factor: confirm it is you first.
    await (await visible(first.page.getByLabel("Your password"))).fill(PASSWORD);
    await first.page.getByRole("button", { name: "Confirm" }).click();
    await visible(first.page.getByText("Passkey added."));
    expect(await first.page.getByTestId("passkey-count").textContent()).toContain("1 passkey can finish signing in");
    await settled(first.page);
    await first.page.screenshot({ path: "/tmp/passkey-added.png" });
    // The registration is in the audit log, with the person it was made for.
    const audit = await fetch(new URL("/api/audit?action=mfa.passkey.registered", own.baseUrl), { headers: { authorization: `Bearer ${superAdminToken}` } });
    const { rows } = (await audit.json()) as { rows: Array<{ actorName: string | null; entityName: string | null }> };
    expect(rows.map((r) => [r.actorName, r.entityName])).toEqual([[USERNAME, USERNAME]]);
    const { credentials } = await first.cdp.send("WebAuthn.getCredentials", { authenticatorId: first.authenticatorId });
    expect(credentials).toHaveLength(1);
    credential = credentials[0] as unknown as Record<string, unknown>;
    await first.page.getByRole("link", { name: "Back to Tally" }).click();
    await waitForPath(first.page, "/dashboard");
    await first.page.getByRole("banner").getByRole("button", { name: "Logout" }).click();
    await waitForPath(first.page, "/login");

    // The same passkey on a fresh tab's authenticator: password, then "Use a passkey".
    const second = await pageWithAuthenticator();
    await second.cdp.send("WebAuthn.addCredential", { authenticatorId: second.authenticatorId, credential: credential as never });
    await signIn(second.page, USERNAME, PASSWORD);
    const usePasskey = await visible(second.page.getByRole("button", { name: "Use a passkey" }));
    await second.page.screenshot({ path: "/tmp/passkey-sign-in.png" });
    await usePasskey.click();
    await waitForPath(second.page, "/dashboard");
    await expectTitle(second.page, "Admin Dashboard");
    // The counter moved: the authenticator signed once more than at registration.
    const after = await second.cdp.send("WebAuthn.getCredentials", { authenticatorId: second.authenticatorId });
    expect(after.credentials[0]?.signCount).toBeGreaterThan(Number(credential.signCount ?? 0));
  });
});
