import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { buildListUser, mockUsersApi } from "../../../testing/fake-users-api";
import { jsonResponse } from "../../../testing/mock-fetch";
import { renderApp } from "../../../testing/render-app";
import { describeSessionRefresh } from "../../../testing/session-refresh-cases";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { resetSecondFactor } from "../api/reset-second-factor";

/** The user's row on the one user screen (/users). */
const openRow = (username: string) => screen.findByTestId(`user-row-${username}`);

describe("Reset Two-Step Sign-In", () => {
  it("asks first, then resets another account's second factor and says so", async () => {
    signIn(buildUser({ id: 1, role: "admin" }));
    const oak = buildListUser({ id: 3, username: "oak", role: "school_user" });
    const fetchMock = mockUsersApi({
      users: [oak],
      overrides: { "POST /users/3/mfa/reset": () => jsonResponse(200, { message: "Two-step sign-in has been reset" }) },
    });
    renderApp("/users");
    const item = await openRow("oak");
    fireEvent.click(await within(item).findByRole("button", { name: "Reset two-step sign-in of oak" }));
    const dialog = await screen.findByRole("dialog", { name: "Reset Two-Step Sign-In" });
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes("/mfa/reset"))).toBe(false);
    fireEvent.click(within(dialog).getByRole("button", { name: "Reset" }));
    expect((await within(dialog).findByRole("status")).textContent).toBe("Two-step sign-in has been reset");
    expect(fetchMock.mock.calls.some(([url, init]) => url === "/api/users/3/mfa/reset" && init?.method === "POST")).toBe(true);
  });

  it("is not offered for one's own account", async () => {
    signIn(buildUser({ id: 1, username: "me", role: "admin" }));
    mockUsersApi({ users: [buildListUser({ id: 1, username: "me", role: "admin" })] });
    renderApp("/users");
    const item = await openRow("me");
    await within(item).findByRole("button", { name: "Reset password of me" });
    expect(within(item).queryByRole("button", { name: /two-step/i })).toBeNull();
  });
});

describeSessionRefresh(() => resetSecondFactor(3));
