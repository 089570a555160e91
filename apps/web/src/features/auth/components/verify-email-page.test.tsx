import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { jsonResponse, mockFetch } from "../../../test/fixtures";
import { renderApp } from "../../../test/render-app";

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
    const { router } = renderApp("/verify?token=t1");
    expect(await screen.findByText("Thanks, you are verified.")).toBeTruthy();
    expect(fetchMock.mock.calls[0]![0]).toBe("/api/auth/verify?token=t1");
    fireEvent.click(screen.getByRole("link", { name: "Proceed to Login" }));
    expect(router.state.location.pathname).toBe("/login");
  });

  it("shows the failure text when the token is refused", async () => {
    mockFetch(() => jsonResponse(400, { error: "Invalid token", code: "INVALID_TOKEN" }));
    renderApp("/verify?token=bad");
    expect(await screen.findByText("Token validation failed. Please try again.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Return to Login" })).toBeTruthy();
  });
});
