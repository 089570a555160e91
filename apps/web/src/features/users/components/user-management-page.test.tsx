import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { jsonResponse } from "../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { renderApp } from "../../../testing/render-app";
import { buildListUser, mockUsersApi } from "../../../testing/fake-users-api";

const admin = buildUser({ id: 1, role: "admin", username: "admin" });

function world() {
  return {
    users: [
      buildListUser({ id: 1, username: "admin", role: "admin" }),
      buildListUser({ id: 2, username: "root", role: "super_admin" }),
      buildListUser({ id: 3, username: "oak", role: "school_user", school_id: 5, school_name: "Oak School" }),
      buildListUser({
        id: 4,
        username: "dana",
        email: "Dana@District.org",
        role: "district_user",
        school_ids: [1, 2, 3, 4, 5, 6, 7],
        school_names: ["S1", "S2", "S3", "S4", "S5", "S6", "S7"],
      }),
      buildListUser({ id: 5, username: "gone", role: "school_user", is_active: false }),
    ],
  };
}

const row = (username: string) => screen.getByTestId(`user-row-${username}`);

describe("User Management page", () => {
  it("lists users with role labels, status and school column", async () => {
    signIn(admin);
    mockUsersApi(world());
    renderApp("/users");
    expect(await screen.findByRole("heading", { name: "User Management" })).toBeTruthy();
    await screen.findByTestId("user-row-oak");
    const headers = screen.getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers).toEqual(["User", "Role", "School", "Status", "Actions"]);
    expect(within(row("root")).getByText("Super Admin")).toBeTruthy();
    expect(within(row("admin")).getByText("Admin")).toBeTruthy();
    expect(within(row("oak")).getByText("School User")).toBeTruthy();
    expect(within(row("dana")).getByText("District Admin")).toBeTruthy();
    expect(within(row("oak")).getByText("Oak School")).toBeTruthy();
    expect(within(row("admin")).getByText("-")).toBeTruthy();
    expect(within(row("gone")).getByText("Inactive")).toBeTruthy();
    expect(within(row("oak")).getByText("Active")).toBeTruthy();
    // District user: a Manage Schools link, five names, then "+2 more..." / "Show less".
    expect(within(row("dana")).getByRole("button", { name: "Manage Schools" })).toBeTruthy();
    expect(within(row("dana")).getByText(/S1, S2, S3, S4, S5/)).toBeTruthy();
    expect(within(row("dana")).queryByText(/S6/)).toBeNull();
    fireEvent.click(within(row("dana")).getByText("+2 more..."));
    expect(within(row("dana")).getByText(/S6, S7/)).toBeTruthy();
    fireEvent.click(within(row("dana")).getByText("Show less"));
    expect(within(row("dana")).queryByText(/S6/)).toBeNull();
  });

  it("filters case-insensitively on username, e-mail and role", async () => {
    signIn(admin);
    mockUsersApi(world());
    renderApp("/users");
    await screen.findByTestId("user-row-oak");
    const search = screen.getByPlaceholderText("Search users by name, email, or role...");
    fireEvent.change(search, { target: { value: "DISTRICT.ORG" } });
    expect(screen.getByTestId("user-row-dana")).toBeTruthy();
    expect(screen.queryByTestId("user-row-oak")).toBeNull();
    fireEvent.change(search, { target: { value: "super" } });
    expect(screen.getByTestId("user-row-root")).toBeTruthy();
    expect(screen.queryByTestId("user-row-admin")).toBeNull();
    fireEvent.change(search, { target: { value: "OA" } });
    expect(screen.getByTestId("user-row-oak")).toBeTruthy();
    expect(screen.queryByTestId("user-row-dana")).toBeNull();
    fireEvent.change(search, { target: { value: "nobody-here" } });
    expect(screen.getByText("No users found matching your search")).toBeTruthy();
  });

  it("hides deactivate on the viewer's own row and on super admin rows for an admin", async () => {
    signIn(admin);
    mockUsersApi(world());
    renderApp("/users");
    await screen.findByTestId("user-row-oak");
    expect(within(row("admin")).queryByRole("button", { name: /Deactivate/ })).toBeNull();
    expect(within(row("root")).queryByRole("button", { name: /Deactivate/ })).toBeNull();
    expect(within(row("oak")).getByRole("button", { name: "Deactivate oak" })).toBeTruthy();
    expect(within(row("gone")).getByRole("button", { name: "Reactivate gone" })).toBeTruthy();
    // Super admin rows are out of an admin's reach altogether.
    expect(within(row("root")).queryByRole("button")).toBeNull();
    expect(within(row("root")).getByText("Super admins only")).toBeTruthy();
  });

  it("offers Edit, Reset password, Login history and Deactivate on an active row, no reset on an inactive one", async () => {
    signIn(admin);
    mockUsersApi(world());
    renderApp("/users");
    await screen.findByTestId("user-row-oak");
    const actions = (username: string) =>
      within(within(row(username)).getByRole("group", { name: `Actions for ${username}` }))
        .getAllByRole("button")
        .map((b) => b.textContent);
    expect(actions("oak")).toEqual(["Edit", "Reset Password", "Reset Two-Step", "Login History", "Deactivate"]);
    // A deactivated account cannot use a reset link; reactivating sends one.
    expect(actions("gone")).toEqual(["Edit", "Reset Two-Step", "Login History", "Reactivate"]);
    // One's own row: no Deactivate, and one's own second factor is turned off on the Two-step page.
    expect(actions("admin")).toEqual(["Edit", "Reset Password", "Login History"]);
    expect(within(row("oak")).getByText("Last login: Never")).toBeTruthy();
    expect(within(row("oak")).getByText("oak@example.org")).toBeTruthy();
  });

  it("pages ten at a time, counts, and filters by status", async () => {
    signIn(admin);
    const users = [buildListUser({ id: 1, username: "admin", role: "admin" })];
    for (let i = 2; i <= 23; i++) users.push(buildListUser({ id: i, username: `active${String(i).padStart(2, "0")}` }));
    users.push(buildListUser({ id: 71, username: "old1", is_active: false }), buildListUser({ id: 72, username: "old2", is_active: false }));
    mockUsersApi({ users });
    renderApp("/users");
    await screen.findByTestId("user-row-admin");
    expect(screen.getByTestId("active-users-count").textContent).toBe("Active users: 23 of 25");
    expect(screen.getByTestId("showing-range").textContent).toBe("Showing 1-10 of 25");
    const pages = within(screen.getByRole("navigation", { name: "Pages of users" }));
    fireEvent.click(pages.getByRole("button", { name: "Page 3" }));
    expect(screen.getByTestId("showing-range").textContent).toBe("Showing 21-25 of 25");
    expect(screen.getByTestId("user-row-old2")).toBeTruthy();
    fireEvent.click(screen.getByRole("radio", { name: "Inactive" }));
    expect(screen.getByTestId("showing-range").textContent).toBe("Showing 1-2 of 2");
    expect(screen.queryByTestId("user-row-admin")).toBeNull();
    fireEvent.click(screen.getByRole("radio", { name: "Active" }));
    expect(screen.getByTestId("showing-range").textContent).toBe("Showing 1-10 of 23");
    expect(screen.queryByTestId("user-row-old1")).toBeNull();
  });

  it("shows deactivate on super admin rows for a super admin, but not on their own", async () => {
    signIn(buildUser({ id: 2, role: "super_admin", username: "root" }));
    mockUsersApi(world());
    renderApp("/users");
    await screen.findByTestId("user-row-oak");
    expect(within(row("admin")).getByRole("button", { name: "Deactivate admin" })).toBeTruthy();
    expect(within(row("root")).queryByRole("button", { name: /Deactivate/ })).toBeNull();
  });

  it("asks before deactivating and reactivating, with the spec's texts", async () => {
    signIn(admin);
    mockUsersApi(world());
    renderApp("/users");
    await screen.findByTestId("user-row-oak");
    fireEvent.click(screen.getByRole("button", { name: "Deactivate oak" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm Deactivation" });
    expect(within(dialog).getByTestId("confirm-text").textContent).toBe(
      'Are you sure you want to deactivate user "oak"? They will no longer be able to log in.',
    );
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    fireEvent.click(screen.getByRole("button", { name: "Reactivate gone" }));
    const again = await screen.findByRole("dialog", { name: "Confirm Reactivation" });
    expect(within(again).getByTestId("confirm-text").textContent).toBe(
      'Are you sure you want to reactivate user "gone"? A password reset will be sent and they will be able to log in again.',
    );
  });

  it("deactivates at once, then shows success that clears after 3 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn(admin);
    const fetchMock = mockUsersApi(world());
    renderApp("/users");
    await screen.findByTestId("user-row-oak");
    fireEvent.click(screen.getByRole("button", { name: "Deactivate oak" }));
    fireEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Deactivate" }));
    expect((await screen.findByTestId("success-banner")).textContent).toContain(
      "User oak has been deactivated successfully",
    );
    expect(within(row("oak")).getByText("Inactive")).toBeTruthy();
    expect(fetchMock.mock.calls.some(([u, i]) => String(u).endsWith("/api/users/3/deactivate") && i?.method === "POST")).toBe(true);
    act(() => vi.advanceTimersByTime(2_900));
    expect(screen.getByTestId("success-banner")).toBeTruthy();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByTestId("success-banner")).toBeNull();
  });

  it("shows the change before the server answers and reverts it with the error on failure", async () => {
    signIn(admin);
    let fail: ((r: Response) => void) | undefined;
    const reply = new Promise<Response>((resolve) => {
      fail = resolve;
    });
    mockUsersApi({ ...world(), overrides: { "POST /users/3/deactivate": () => reply as unknown as Response } });
    renderApp("/users");
    await screen.findByTestId("user-row-oak");
    fireEvent.click(screen.getByRole("button", { name: "Deactivate oak" }));
    fireEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Deactivate" }));
    await waitFor(() => expect(within(row("oak")).getByText("Inactive")).toBeTruthy());
    fail?.(new Response("", { status: 500 }));
    expect((await screen.findByTestId("error-banner")).textContent).toContain(
      "Failed to update status for user oak. Please try again.",
    );
    await waitFor(() => expect(within(row("oak")).getByText("Active")).toBeTruthy());
  });

  it("prefers the server's text when a status change is refused", async () => {
    signIn(admin);
    mockUsersApi({
      ...world(),
      overrides: {
        "POST /users/5/reactivate": () => jsonResponse(403, { error: "Nope, not allowed", code: "FORBIDDEN" }),
      },
    });
    renderApp("/users");
    await screen.findByTestId("user-row-gone");
    fireEvent.click(screen.getByRole("button", { name: "Reactivate gone" }));
    fireEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Reactivate" }));
    expect((await screen.findByTestId("error-banner")).textContent).toContain("Nope, not allowed");
    expect(within(row("gone")).getByText("Inactive")).toBeTruthy();
  });

  it("asks before sending a password reset, naming the person, and sends only on confirmation", async () => {
    signIn(admin);
    const fetchMock = mockUsersApi({
      ...world(),
      overrides: { "POST /users/3/reset-password": () => jsonResponse(200, { message: "A password reset link has been sent to oak" }) },
    });
    renderApp("/users");
    await screen.findByTestId("user-row-oak");
    fireEvent.click(screen.getByRole("button", { name: "Reset password of oak" }));
    const dialog = await screen.findByRole("dialog", { name: "Reset password for oak" });
    expect(within(dialog).getByTestId("reset-confirm-text").textContent).toBe(
      "Send oak a link at oak@example.org to choose a new password?",
    );
    const resets = () => fetchMock.mock.calls.filter(([u]) => String(u).endsWith("/api/users/3/reset-password"));
    expect(resets()).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole("button", { name: "Send Reset Link" }));
    expect(await within(dialog).findByText("A password reset link has been sent to oak")).toBeTruthy();
    expect(resets()).toHaveLength(1);
  });

  it("reactivates an inactive account after its confirmation", async () => {
    signIn(admin);
    mockUsersApi(world());
    renderApp("/users");
    await screen.findByTestId("user-row-gone");
    fireEvent.click(screen.getByRole("button", { name: "Reactivate gone" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm Reactivation" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Reactivate" }));
    expect((await screen.findByTestId("success-banner")).textContent).toContain(
      "User gone has been reactivated successfully and a password reset has been sent",
    );
    await waitFor(() => expect(within(row("gone")).getByText("Active")).toBeTruthy());
    expect(within(row("gone")).getByRole("button", { name: "Reset password of gone" })).toBeTruthy();
  });

  it("leads the old addresses to this screen", async () => {
    signIn(admin);
    mockUsersApi(world());
    renderApp("/admin/users");
    expect(await screen.findByRole("heading", { name: "User Management" })).toBeTruthy();
  });

  it("shows the server's error or 'Failed to fetch users' when the list fails", async () => {
    signIn(admin);
    mockUsersApi({ users: [], overrides: { "GET /users": () => new Response("", { status: 500 }) } });
    renderApp("/users");
    expect(await screen.findByText("Failed to fetch users")).toBeTruthy();
  });

  it("opens the School Access Management dialog from a district user's link", async () => {
    signIn(admin);
    mockUsersApi(world());
    renderApp("/users");
    await screen.findByTestId("user-row-dana");
    fireEvent.click(screen.getByRole("button", { name: "Manage Schools" }));
    const dialog = await screen.findByRole("dialog", { name: "School Access Management" });
    expect(await within(dialog).findByText("Manage School Access for dana")).toBeTruthy();
  });
});
