import { MESSAGES } from "@tally/contract";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { jsonResponse } from "../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { renderApp } from "../../../testing/render-app";
import { buildListUser, mockUsersApi } from "../../../testing/fake-users-api";

async function openAction(username: string, action: string) {
  const row = await screen.findByTestId(`user-row-${username}`);
  fireEvent.click(within(row).getByRole("button", { name: `${action} ${username}` }));
}

describe("Edit User modal", () => {
  it("saves, says so and closes after 2 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn(buildUser({ id: 1, role: "admin" }));
    const oak = buildListUser({ id: 3, username: "oak", role: "admin" });
    const fetchMock = mockUsersApi({
      users: [oak],
      overrides: { "PUT /users/3": () => jsonResponse(200, { message: MESSAGES.userUpdated, user: oak }) },
    });
    renderApp("/users");
    await openAction("oak", "Edit");
    const dialog = await screen.findByRole("dialog", { name: "Edit User" });
    fireEvent.change(within(dialog).getByLabelText(/^Email/), { target: { value: "new@example.org" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(await within(dialog).findByText("User updated successfully!")).toBeTruthy();
    const put = fetchMock.mock.calls.find(([u, i]) => String(u).endsWith("/api/users/3") && i?.method === "PUT");
    expect(JSON.parse(String(put![1]!.body))).toMatchObject({ username: "oak", email: "new@example.org", role: "admin" });
    act(() => vi.advanceTimersByTime(1_900));
    expect(screen.getByRole("dialog", { name: "Edit User" })).toBeTruthy();
    act(() => vi.advanceTimersByTime(200));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Edit User" })).toBeNull());
  });

  it("validates and shows the server's text on failure", async () => {
    signIn(buildUser({ id: 1, role: "admin" }));
    mockUsersApi({
      users: [buildListUser({ id: 3, username: "oak", role: "school_user", school_id: null })],
      overrides: { "PUT /users/3": () => jsonResponse(409, { error: "Email already exists", code: "CONFLICT" }) },
    });
    renderApp("/users");
    await openAction("oak", "Edit");
    const dialog = await screen.findByRole("dialog", { name: "Edit User" });
    fireEvent.change(within(dialog).getByLabelText(/^Username/), { target: { value: "x" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(await within(dialog).findByText(MESSAGES.usernameTooShort)).toBeTruthy();
    expect(within(dialog).getByText(MESSAGES.selectSchool)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/^Username/), { target: { value: "oak2" } });
    fireEvent.change(within(dialog).getByLabelText(/^Role/), { target: { value: "admin" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(await within(dialog).findByText("Email already exists")).toBeTruthy();
  });
});

describe("Reset Password modal", () => {
  it("checks length and match, then sets the password", async () => {
    signIn(buildUser({ id: 1, role: "admin" }));
    const fetchMock = mockUsersApi({
      users: [buildListUser({ id: 3, username: "oak" })],
      overrides: { "POST /users/3/reset-password": () => jsonResponse(200, { message: "Password for oak has been updated" }) },
    });
    renderApp("/users");
    await openAction("oak", "Reset password of");
    const dialog = await screen.findByRole("dialog", { name: "Reset password for oak" });
    fireEvent.change(within(dialog).getByLabelText(/^New Password/), { target: { value: "short" } });
    fireEvent.change(within(dialog).getByLabelText(/^Confirm New Password/), { target: { value: "other" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Set Password" }));
    expect(await within(dialog).findByText("Password must be at least 8 characters")).toBeTruthy();
    expect(within(dialog).getByText("Passwords do not match")).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/^New Password/), { target: { value: "long-enough-1" } });
    fireEvent.change(within(dialog).getByLabelText(/^Confirm New Password/), { target: { value: "long-enough-1" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Set Password" }));
    expect(await within(dialog).findByText("Password for oak has been updated")).toBeTruthy();
    const call = fetchMock.mock.calls.find(([u]) => String(u).endsWith("/api/users/3/reset-password"));
    expect(JSON.parse(String(call![1]!.body))).toEqual({ password: "long-enough-1" });
  });

  it("sends a link, and shows the fallback text when that fails", async () => {
    signIn(buildUser({ id: 1, role: "admin" }));
    const fetchMock = mockUsersApi({
      users: [buildListUser({ id: 3, username: "oak" })],
      overrides: { "POST /users/3/reset-password": () => new Response("", { status: 500 }) },
    });
    renderApp("/users");
    await openAction("oak", "Reset password of");
    const dialog = await screen.findByRole("dialog", { name: "Reset password for oak" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Send Reset Link" }));
    expect(await within(dialog).findByText("Failed to reset password. Please try again.")).toBeTruthy();
    const call = fetchMock.mock.calls.find(([u]) => String(u).endsWith("/api/users/3/reset-password"));
    expect(JSON.parse(String(call![1]!.body))).toEqual({});
  });
});
