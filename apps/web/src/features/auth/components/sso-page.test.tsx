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
    window.history.replaceState(null, "", "/sso#error=NO_ACCOUNT&provider=google&email=stranger%40school.example");
    renderApp("/sso");
    expect((await screen.findByTestId("sso-refusal")).textContent).toBe(
      "There is no Tally account for stranger@school.example — ask your programme administrator.",
    );
    expect(screen.getByRole("link", { name: "Return to Login" })).toBeTruthy();
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
