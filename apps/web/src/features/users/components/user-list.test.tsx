import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { renderApp } from "../../../testing/render-app";
import { buildListUser, mockUsersApi } from "../../../testing/fake-users-api";

const admin = buildUser({ id: 1, role: "admin", username: "admin" });

function manyUsers() {
  const users = [buildListUser({ id: 1, username: "admin", role: "admin" })];
  for (let i = 2; i <= 63; i++) users.push(buildListUser({ id: i, username: `active${String(i).padStart(2, "0")}` }));
  users.push(buildListUser({ id: 70, username: "root", role: "super_admin" }));
  users.push(buildListUser({ id: 71, username: "old1", is_active: false }));
  users.push(buildListUser({ id: 72, username: "old2", is_active: false }));
  users.push(
    buildListUser({
      id: 73,
      username: "dana",
      role: "district_user",
      school_ids: [1, 2, 3, 4, 5, 6, 7, 8],
      school_names: ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8"],
      last_login: "2025-02-03T08:00:00.000Z",
    }),
  );
  return users;
}

async function openList() {
  fireEvent.click(await screen.findByRole("button", { name: /User Management/ }));
  return screen.findByTestId("active-users-count");
}

describe("user list in Admin Settings", () => {
  it("counts, pages ten at a time with at most five page buttons", async () => {
    signIn(admin);
    mockUsersApi({ users: manyUsers() });
    renderApp("/admin/settings");
    expect((await openList()).textContent).toBe("Active Users: 65 of 67 total");
    expect(screen.getByTestId("showing-range").textContent).toBe("Showing 1-10 of 65");
    const pages = within(screen.getByRole("navigation", { name: "Pages of active users" }));
    expect(pages.getAllByRole("button", { name: /^Page \d+$/ }).map((b) => b.textContent)).toEqual(["1", "2", "3", "4", "5"]);
    fireEvent.click(pages.getByRole("button", { name: "Page 5" }));
    expect(screen.getByTestId("showing-range").textContent).toBe("Showing 41-50 of 65");
    expect(pages.getAllByRole("button", { name: /^Page \d+$/ }).map((b) => b.textContent)).toEqual(["3", "4", "5", "6", "7"]);
    fireEvent.click(pages.getByRole("button", { name: "Page 7" }));
    expect(screen.getByTestId("showing-range").textContent).toBe("Showing 61-65 of 65");
  });

  it("filters with the search box and folds inactive users away", async () => {
    signIn(admin);
    mockUsersApi({ users: manyUsers() });
    renderApp("/admin/settings");
    await openList();
    fireEvent.change(screen.getByPlaceholderText("Search users..."), { target: { value: "OLD" } });
    expect(screen.getByTestId("active-users-count").textContent).toBe("Active Users: 0 of 67 total");
    const toggle = screen.getByRole("button", { name: /Inactive Users \(2\)/ });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(await screen.findByTestId("user-item-old1")).toBeTruthy();
    expect(within(screen.getByTestId("user-item-old1")).getByText("Inactive")).toBeTruthy();
  });

  it("expands a row to every field and the actions", async () => {
    signIn(admin);
    mockUsersApi({ users: manyUsers() });
    renderApp("/admin/settings");
    await openList();
    fireEvent.change(screen.getByPlaceholderText("Search users..."), { target: { value: "dana" } });
    const item = screen.getByTestId("user-item-dana");
    fireEvent.click(within(item).getByRole("button", { name: /dana/ }));
    await within(item).findByText("Last Login");
    expect(within(item).getByText("S1, S2, S3, S4, S5 +3 more schools...")).toBeTruthy();
    expect(within(item).getByRole("button", { name: "Manage schools of dana" })).toBeTruthy();
    expect(within(item).getAllByText("District Admin").length).toBeGreaterThan(0);
    const actions = within(within(item).getByRole("group", { name: "Actions for dana" }));
    for (const name of ["Login History", "Reset Password", "Edit", "Deactivate"]) {
      expect(actions.getByRole("button", { name })).toBeTruthy();
    }
  });

  it("shows Never for a user who never signed in and hides management of super admins from admins", async () => {
    signIn(admin);
    mockUsersApi({ users: manyUsers() });
    renderApp("/admin/settings");
    await openList();
    fireEvent.change(screen.getByPlaceholderText("Search users..."), { target: { value: "root" } });
    const root = screen.getByTestId("user-item-root");
    fireEvent.click(within(root).getByRole("button", { name: /root/ }));
    expect(await within(root).findByText("Never")).toBeTruthy();
    expect(within(root).queryByRole("button", { name: "Edit" })).toBeNull();
    expect(within(root).getByText("Only a super admin can manage this account.")).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText("Search users..."), { target: { value: "admin" } });
    const own = screen.getByTestId("user-item-admin");
    fireEvent.click(within(own).getByRole("button", { name: /admin@/ }));
    await within(own).findByRole("button", { name: "Edit" });
    expect(within(own).queryByRole("button", { name: "Deactivate" })).toBeNull();
  });

  it("reactivates from the inactive list at once", async () => {
    signIn(admin);
    mockUsersApi({ users: manyUsers() });
    renderApp("/admin/settings");
    await openList();
    fireEvent.click(screen.getByRole("button", { name: /Inactive Users \(2\)/ }));
    const item = await screen.findByTestId("user-item-old1");
    fireEvent.click(within(item).getByRole("button", { name: /old1/ }));
    fireEvent.click(await within(item).findByRole("button", { name: "Reactivate" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm Reactivation" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Reactivate" }));
    await waitFor(() => expect(screen.getByRole("button", { name: /Inactive Users \(1\)/ })).toBeTruthy());
    expect((await screen.findByTestId("success-banner")).textContent).toContain(
      "User old1 has been reactivated successfully and a password reset has been sent",
    );
  });
});
