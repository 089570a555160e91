import { MESSAGES } from "@tally/contract";
import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { authStore } from "../../../lib/auth-store";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { renderApp } from "../../../testing/render-app";
import { buildUser } from "../../../testing/signed-in-user";

// The browser's passkey prompt (the real one runs in the passkey journey with a virtual authenticator).
const ASSERTION = { id: "cred-1", rawId: "cred-1", type: "public-key", clientExtensionResults: {}, response: { clientDataJSON: "e30", authenticatorData: "AA", signature: "AA" } };
const startAuthentication = vi.hoisted(() => vi.fn());
vi.mock("@simplewebauthn/browser", () => ({ startAuthentication, startRegistration: vi.fn() }));

const CHALLENGE = { mfaRequired: true, challenge: "challenge-1", methods: ["totp", "recovery"] };

async function passwordStep() {
  fireEvent.change(await screen.findByLabelText("Username or Email"), { target: { value: "ada" } });
  fireEvent.change(screen.getByLabelText("Password"), { target: { value: "pw" } });
  fireEvent.click(screen.getByRole("button", { name: "Sign In" }));
  return screen.findByLabelText(MESSAGES.mfaEnterCode);
}

describe("the sign-in's code step", () => {
  it("asks for the code after the password, stores nothing until the code, then signs in", async () => {
    const user = buildUser({ role: "admin" });
    const fetchMock = mockFetch((url) =>
      url === "/api/auth/login" ? jsonResponse(200, CHALLENGE) : url === "/api/auth/mfa/verify" ? jsonResponse(200, { token: "t1", refreshToken: "r1", user }) : jsonResponse(200, {}),
    );
    const { router } = renderApp("/login");
    const field = await passwordStep();
    expect(authStore.get().token).toBeNull();

    fireEvent.change(field, { target: { value: "12" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText(MESSAGES.mfaEnterCode, { selector: ".mantine-TextInput-error" })).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([url]) => url === "/api/auth/mfa/verify")).toHaveLength(0);

    fireEvent.change(field, { target: { value: "123 456" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    await screen.findByRole("heading", { name: "Admin Dashboard" });
    expect(router.state.location.pathname).toBe("/dashboard");
    expect(authStore.get()).toMatchObject({ token: "t1", refreshToken: "r1" });
    const verifyCall = fetchMock.mock.calls.find(([url]) => url === "/api/auth/mfa/verify");
    expect(JSON.parse(String(verifyCall?.[1]?.body))).toEqual({ challenge: "challenge-1", code: "123456" });
  });

  it("takes a recovery code instead, and shows the server's refusal", async () => {
    const fetchMock = mockFetch((url) =>
      url === "/api/auth/login" ? jsonResponse(200, CHALLENGE) : jsonResponse(401, { error: MESSAGES.mfaInvalidCode, code: "INVALID_MFA_CODE" }),
    );
    renderApp("/login");
    await passwordStep();
    fireEvent.click(screen.getByRole("button", { name: "Use a recovery code instead" }));
    fireEvent.change(screen.getByLabelText("Recovery code"), { target: { value: "abcde-23456" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect((await screen.findByTestId("mfa-error")).textContent).toBe(MESSAGES.mfaInvalidCode);
    const verifyCall = fetchMock.mock.calls.find(([url]) => url === "/api/auth/mfa/verify");
    expect(JSON.parse(String(verifyCall?.[1]?.body))).toEqual({ challenge: "challenge-1", code: "abcde-23456" });
  });

  it("goes back to the password when the challenge has run out", async () => {
    mockFetch((url) =>
      url === "/api/auth/login" ? jsonResponse(200, CHALLENGE) : jsonResponse(401, { error: MESSAGES.mfaChallengeExpired, code: "MFA_CHALLENGE_INVALID" }),
    );
    renderApp("/login");
    fireEvent.change(await passwordStep(), { target: { value: "123456" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect((await screen.findByTestId("mfa-error")).textContent).toBe(MESSAGES.mfaChallengeExpired);
    fireEvent.click(screen.getByRole("button", { name: "Sign in again" }));
    expect(await screen.findByLabelText("Password")).toBeTruthy();
  });

  it("offers a passkey only when the login reply names it, and signs in with its answer for this challenge", async () => {
    mockFetch((url) => (url === "/api/auth/login" ? jsonResponse(200, CHALLENGE) : jsonResponse(200, {})));
    const first = renderApp("/login");
    await passwordStep();
    expect(screen.queryByRole("button", { name: "Use a passkey" })).toBeNull();
    first.unmount();

    const user = buildUser({ role: "admin" });
    startAuthentication.mockResolvedValue(ASSERTION);
    const fetchMock = mockFetch((url) =>
      url === "/api/auth/login"
        ? jsonResponse(200, { ...CHALLENGE, methods: ["totp", "passkey", "recovery"] })
        : url === "/api/auth/mfa/passkey/options"
          ? jsonResponse(200, { challenge: "webauthn-1", rpId: "localhost", allowCredentials: [] })
          : url === "/api/auth/mfa/passkey/verify"
            ? jsonResponse(200, { token: "t2", refreshToken: "r2", user })
            : jsonResponse(200, {}),
    );
    const { router } = renderApp("/login");
    await passwordStep();
    fireEvent.click(screen.getByRole("button", { name: "Use a passkey" }));
    await screen.findByRole("heading", { name: "Admin Dashboard" });
    expect(router.state.location.pathname).toBe("/dashboard");
    expect(authStore.get()).toMatchObject({ token: "t2", refreshToken: "r2" });
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: "webauthn-1", rpId: "localhost", allowCredentials: [] } });
    const bodyOf = (path: string) => JSON.parse(String(fetchMock.mock.calls.find(([url]) => url === path)?.[1]?.body));
    expect(bodyOf("/api/auth/mfa/passkey/options")).toEqual({ challenge: "challenge-1" });
    expect(bodyOf("/api/auth/mfa/passkey/verify")).toEqual({ challenge: "challenge-1", response: ASSERTION });
  });
});
