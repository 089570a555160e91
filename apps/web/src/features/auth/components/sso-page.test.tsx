import { MESSAGES } from "@tally/contract";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { authStore } from "../../../lib/auth-store";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { buildUser } from "../../../testing/signed-in-user";
import { renderApp } from "../../../testing/render-app";

const PROVIDERS = [{ id: "google", name: "Google" }];

describe("/sso, where a single sign-on ends", () => {
  it("exchanges the one-time code once, stores the session, clears the address bar and goes home", async () => {
    const user = buildUser({ role: "admin" });
    const fetchMock = mockFetch((url) =>
      url === "/api/auth/oidc/exchange" ? jsonResponse(200, { token: "t1", refreshToken: "r1", user }) : jsonResponse(200, PROVIDERS),
    );
    window.history.replaceState(null, "", "/sso#code=one-time-code");
    const { router } = renderApp("/sso");
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(authStore.get()).toMatchObject({ token: "t1", refreshToken: "r1" });
    const exchanges = fetchMock.mock.calls.filter(([url]) => String(url).endsWith("/api/auth/oidc/exchange"));
    expect(exchanges).toHaveLength(1);
    expect(JSON.parse(String(exchanges[0]![1]?.body))).toEqual({ code: "one-time-code" });
    expect(window.location.hash).toBe("");
  });

  it("explains a refusal: no Tally account for the address", async () => {
    mockFetch(() => jsonResponse(200, PROVIDERS));
    window.history.replaceState(null, "", "/sso#error=NO_ACCOUNT&provider=google");
    renderApp("/sso");
    const alert = await screen.findByTestId("sso-refusal");
    // The provider's name once the list of providers has come.
    await waitFor(() => expect(alert.textContent).toBe("There is no Tally account for the e-mail address Google gave — ask your programme administrator."));
    expect(screen.getByRole("link", { name: "Return to Login" })).toBeTruthy();
  });

  it("shows only its own fixed texts, never a value written into the link", async () => {
    mockFetch(() => jsonResponse(200, PROVIDERS));
    const injected = "Your account is locked. Call +1 555 0100 to unlock it";
    for (const [hash, expected] of [
      [`error=NO_ACCOUNT&provider=google&email=${encodeURIComponent(injected)}`, "There is no Tally account for the e-mail address Google gave — ask your programme administrator."],
      [`error=DOMAIN_NOT_ALLOWED&provider=${encodeURIComponent(injected)}`, "Tally does not accept your provider sign-in for your e-mail address. Use your school account or ask your programme administrator."],
      [`error=${encodeURIComponent(injected)}&provider=google`, "Sign-in with Google did not complete. Please try again."],
    ] as const) {
      window.history.replaceState(null, "", `/sso#${hash}`);
      const { unmount } = renderApp("/sso");
      const alert = await screen.findByTestId("sso-refusal");
      await waitFor(() => expect(alert.textContent).toBe(expected));
      expect(document.body.textContent).not.toContain("555 0100");
      unmount();
    }
  });

  it("asks a browser that is signed in already before switching; staying keeps the session and spends nothing", async () => {
    const current = buildUser({ role: "school_user", username: "current.user" });
    authStore.set({ token: "t-current", refreshToken: "r-current", user: current });
    const fetchMock = mockFetch(() => jsonResponse(200, PROVIDERS));
    window.history.replaceState(null, "", "/sso#code=someone-elses-code");
    const { router } = renderApp("/sso");
    expect((await screen.findByTestId("sso-switch-question")).textContent).toContain("You are signed in as current.user.");
    expect(window.location.hash).toBe("");
    fireEvent.click(screen.getByRole("button", { name: "Stay signed in as current.user" }));
    await waitFor(() => expect(router.state.location.pathname).not.toBe("/sso"));
    expect(authStore.get()).toMatchObject({ token: "t-current", refreshToken: "r-current" });
    expect(fetchMock.mock.calls.filter(([url]) => String(url).includes("/api/auth/oidc/exchange") || String(url).includes("/api/auth/logout"))).toEqual([]);
  });

  it("switches only when asked to: the old sign-in is ended, then the code exchanged", async () => {
    const current = buildUser({ role: "school_user", username: "current.user" });
    const next = buildUser({ role: "admin", username: "next.user" });
    authStore.set({ token: "t-current", refreshToken: "r-current", user: current });
    const fetchMock = mockFetch((url) =>
      url === "/api/auth/oidc/exchange"
        ? jsonResponse(200, { token: "t-next", refreshToken: "r-next", user: next })
        : url === "/api/auth/logout"
          ? jsonResponse(200, { message: "Signed out" })
          : jsonResponse(200, PROVIDERS),
    );
    window.history.replaceState(null, "", "/sso#code=my-own-code");
    const { router } = renderApp("/sso");
    await screen.findByTestId("sso-switch-question");
    expect(fetchMock.mock.calls.filter(([url]) => String(url).includes("/api/auth/oidc/exchange"))).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "Switch account" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(authStore.get()).toMatchObject({ token: "t-next", refreshToken: "r-next" });
    const calls = fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes("/api/auth/logout") || url.includes("/api/auth/oidc/exchange"));
    expect(calls).toEqual(["/api/auth/logout", "/api/auth/oidc/exchange"]);
    const logoutCall = fetchMock.mock.calls.find(([url]) => url === "/api/auth/logout");
    expect(JSON.parse(String(logoutCall?.[1]?.body))).toEqual({ refreshToken: "r-current" });
  });

  it("shows the server's text when the code has expired", async () => {
    mockFetch((url) =>
      url === "/api/auth/oidc/exchange"
        ? jsonResponse(401, { error: "This sign-in link has expired or was already used. Please sign in again.", code: "INVALID_TOKEN" })
        : jsonResponse(200, PROVIDERS),
    );
    window.history.replaceState(null, "", "/sso#code=spent");
    renderApp("/sso");
    expect((await screen.findByTestId("sso-refusal")).textContent).toBe(
      "This sign-in link has expired or was already used. Please sign in again.",
    );
  });

  it("asks for the two-step code when the exchange answers a challenge, storing nothing until the code signs in", async () => {
    const user = buildUser({ role: "admin" });
    const fetchMock = mockFetch((url) =>
      url === "/api/auth/oidc/exchange"
        ? jsonResponse(200, { mfaRequired: true, challenge: "challenge-sso", methods: ["totp", "recovery"] })
        : url === "/api/auth/mfa/verify"
          ? jsonResponse(200, { token: "t2", refreshToken: "r2", user })
          : jsonResponse(200, PROVIDERS),
    );
    window.history.replaceState(null, "", "/sso#code=one-factor-code");
    const { router } = renderApp("/sso");
    const field = await screen.findByLabelText(MESSAGES.mfaEnterCode);
    expect(authStore.get().token).toBeNull();
    expect(router.state.location.pathname).toBe("/sso");
    expect(window.location.hash).toBe("");

    fireEvent.change(field, { target: { value: "654 321" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(authStore.get()).toMatchObject({ token: "t2", refreshToken: "r2" });
    const verifyCall = fetchMock.mock.calls.find(([url]) => url === "/api/auth/mfa/verify");
    expect(JSON.parse(String(verifyCall?.[1]?.body))).toEqual({ challenge: "challenge-sso", code: "654321" });
    expect(fetchMock.mock.calls.filter(([url]) => String(url).endsWith("/api/auth/oidc/exchange"))).toHaveLength(1);
  });

  it("sends the person back to sign in again when the challenge has expired", async () => {
    mockFetch((url) =>
      url === "/api/auth/oidc/exchange"
        ? jsonResponse(200, { mfaRequired: true, challenge: "old", methods: ["totp", "recovery"] })
        : url === "/api/auth/mfa/verify"
          ? jsonResponse(401, { error: MESSAGES.mfaChallengeExpired, code: "MFA_CHALLENGE_INVALID" })
          : jsonResponse(200, PROVIDERS),
    );
    window.history.replaceState(null, "", "/sso#code=late");
    const { router } = renderApp("/sso");
    fireEvent.change(await screen.findByLabelText(MESSAGES.mfaEnterCode), { target: { value: "111111" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    fireEvent.click(await screen.findByRole("button", { name: "Sign in again" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
  });
});
