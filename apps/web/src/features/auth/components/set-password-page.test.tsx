import { MESSAGES } from "@tally/contract";
import { act, fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { renderApp } from "../../../testing/render-app";

function validTokenServer(setPasswordReply: () => Response = () => jsonResponse(200, { message: "ok" })) {
  return mockFetch((url) => {
    if (url.startsWith("/api/auth/verify-reset-token")) return jsonResponse(200, { valid: true });
    if (url === "/api/auth/set-password") return setPasswordReply();
    return jsonResponse(404, { error: "Not found", code: "NOT_FOUND" });
  });
}

function meter() {
  return screen.getByTestId("password-strength");
}

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe("password reset page", () => {
  it("explains a missing token", async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, { valid: true }));
    renderApp("/set-password");
    expect(await screen.findByText("No token provided. Please use the link from the email.")).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the invalid-link text when the server says the token is not valid", async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, { valid: false }));
    renderApp("/set-password#token=abc");
    expect(await screen.findByText("This password reset link is invalid or has expired.")).toBeTruthy();
    expect(fetchMock.mock.calls[0]![0]).toBe("/api/auth/verify-reset-token");
  });

  it("takes the token from the link's fragment, checks it in a POST body and clears it from the address bar", async () => {
    const fetchMock = validTokenServer();
    const { router } = renderApp("/set-password#token=frag-token_1");
    await screen.findByLabelText("New password");
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/auth/verify-reset-token");
    expect(init?.method).toBe("POST");
    expect(JSON.parse(String(init?.body))).toEqual({ token: "frag-token_1" });
    expect(router.state.location.pathname).toBe("/set-password");
    expect(router.state.location.hash).toBe("");
    expect(router.state.location.search).toBe("");
  });

  it("checks a second link opened in the same tab, not the first one's token", async () => {
    const fetchMock = validTokenServer();
    const { router } = renderApp("/set-password#token=first-link");
    await screen.findByLabelText("New password");
    await act(() => router.navigate("/set-password#token=second-link"));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(JSON.parse(String(fetchMock.mock.calls[1]![1]?.body))).toEqual({ token: "second-link" });
    expect(router.state.location.hash).toBe("");
  });

  it("still reads ?token= from older links, and clears it too", async () => {
    const fetchMock = validTokenServer();
    const { router } = renderApp("/set-password?token=old-link");
    await screen.findByLabelText("New password");
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]?.body))).toEqual({ token: "old-link" });
    expect(router.state.location.search).toBe("");
    type("New password", "Str0ng!pass");
    type("Confirm password", "Str0ng!pass");
    fireEvent.click(screen.getByRole("button", { name: "Update Password" }));
    expect(await screen.findByText("Password updated successfully! Redirecting to login...")).toBeTruthy();
    const call = fetchMock.mock.calls.find(([u]) => u === "/api/auth/set-password")!;
    expect(JSON.parse(String(call[1]?.body))).toEqual({ token: "old-link", password: "Str0ng!pass" });
  });

  it("shows the invalid-link text when verification fails", async () => {
    mockFetch(() => jsonResponse(400, { error: "Invalid token", code: "INVALID_TOKEN" }));
    renderApp("/set-password#token=abc");
    expect(await screen.findByText(MESSAGES.resetInvalidLink)).toBeTruthy();
  });

  it("shows a verifying state first", async () => {
    mockFetch(() => new Promise<Response>(() => {}));
    renderApp("/set-password#token=abc");
    expect(await screen.findByText("Verifying your reset link...", { selector: "p" })).toBeTruthy();
  });

  it("colours the strength meter red, yellow, green and names the level", async () => {
    validTokenServer();
    renderApp("/set-password#token=abc");
    await screen.findByLabelText("New password");
    type("New password", "abc");
    expect(meter().dataset.strengthColor).toBe("red");
    expect(meter().textContent).toContain("Weak");
    type("New password", "abcdefgH");
    expect(meter().dataset.strengthColor).toBe("yellow");
    expect(meter().textContent).toContain("Medium");
    type("New password", "abcdefG1!");
    expect(meter().dataset.strengthColor).toBe("green");
    expect(meter().textContent).toContain("Strong");
  });

  it("validates strength and confirmation before calling the server", async () => {
    const fetchMock = validTokenServer();
    renderApp("/set-password#token=abc");
    await screen.findByLabelText("New password");
    type("New password", "abc");
    type("Confirm password", "abd");
    fireEvent.click(screen.getByRole("button", { name: "Update Password" }));
    expect(await screen.findByText("Please choose a stronger password")).toBeTruthy();
    expect(screen.getByText("Passwords do not match")).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => url === "/api/auth/set-password")).toBe(false);
  });

  it("posts the new password, shows success and goes to /login after 3 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = validTokenServer();
    const { router } = renderApp("/set-password#token=abc");
    await screen.findByLabelText("New password");
    type("New password", "Str0ng!pass");
    type("Confirm password", "Str0ng!pass");
    fireEvent.click(screen.getByRole("button", { name: "Update Password" }));
    expect(await screen.findByText("Password updated successfully! Redirecting to login...")).toBeTruthy();
    const call = fetchMock.mock.calls.find(([url]) => url === "/api/auth/set-password")!;
    expect(JSON.parse(String(call[1]?.body))).toEqual({ token: "abc", password: "Str0ng!pass" });
    expect(router.state.location.pathname).toBe("/set-password");
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3_000);
    });
    expect(router.state.location.pathname).toBe("/login");
  });

  it("shows the server's text, or the fallback, when the update fails", async () => {
    validTokenServer(() => jsonResponse(400, { error: "Token already used", code: "INVALID_TOKEN" }));
    const first = renderApp("/set-password#token=abc");
    await screen.findByLabelText("New password");
    type("New password", "Str0ng!pass");
    type("Confirm password", "Str0ng!pass");
    fireEvent.click(screen.getByRole("button", { name: "Update Password" }));
    expect(await screen.findByText("Token already used")).toBeTruthy();
    first.unmount();

    validTokenServer(() => new Response("", { status: 500 }));
    renderApp("/set-password#token=abc");
    await screen.findByLabelText("New password");
    type("New password", "Str0ng!pass");
    type("Confirm password", "Str0ng!pass");
    fireEvent.click(screen.getByRole("button", { name: "Update Password" }));
    expect(await screen.findByText("Failed to update password. Please try again.")).toBeTruthy();
  });
});
