import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { renderApp } from "../../../testing/render-app";

describe("e-mail verification page", () => {
  it("explains a missing token", async () => {
    renderApp("/verify");
    expect(
      await screen.findByText("No verification token provided. Please use the link from the email."),
    ).toBeTruthy();
    expect(screen.getByRole("link", { name: "Return to Login" })).toBeTruthy();
  });

  it("shows the server's success message and a way to log in", async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, { message: "Thanks, you are verified." }));
    const { router } = renderApp("/verify#token=t1");
    expect(await screen.findByText("Thanks, you are verified.")).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/auth/verify");
    expect(init?.method).toBe("POST");
    expect(JSON.parse(String(init?.body))).toEqual({ token: "t1" });
    // The token is gone from the address bar.
    expect(router.state.location.hash).toBe("");
    fireEvent.click(screen.getByRole("link", { name: "Proceed to Login" }));
    expect(router.state.location.pathname).toBe("/login");
  });

  it("still reads ?token= from older links, posts it and clears it from the address bar", async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, { message: "Verified." }));
    const { router } = renderApp("/verify?token=old-link");
    expect(await screen.findByText("Verified.")).toBeTruthy();
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]?.body))).toEqual({ token: "old-link" });
    expect(router.state.location.pathname).toBe("/verify");
    expect(router.state.location.search).toBe("");
  });

  it("shows the failure text when the token is refused", async () => {
    mockFetch(() => jsonResponse(400, { error: "Invalid token", code: "INVALID_TOKEN" }));
    renderApp("/verify#token=bad");
    expect(await screen.findByText("Token validation failed. Please try again.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Return to Login" })).toBeTruthy();
  });
});
