import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { buildListUser, mockUsersApi } from "../testing/fake-users-api";
import { jsonResponse, mockFetch } from "../testing/mock-fetch";
import { renderApp } from "../testing/render-app";
import { buildUser, signIn } from "../testing/signed-in-user";

const ADMIN_LINKS = [
  ["Dashboard", "/dashboard"],
  ["Import week", "/admin/settings?import=1"],
  ["Users", "/users"],
  ["Schools & cohorts", "/admin/settings#schools-and-cohorts"],
  ["Settings", "/admin/settings"],
];
const SUPER_ADMIN_LINKS = [...ADMIN_LINKS, ["Audit log", "/admin/audit"], ["Flag Uploader", "/admin/flag-uploader"]];

const navLinks = async () => {
  const nav = await screen.findByRole("navigation", { name: "Admin" });
  return within(nav)
    .getAllByRole("link")
    .map((a) => [a.textContent, a.getAttribute("href")]);
};

describe("admin navigation", () => {
  it("gives an admin the five admin links, and no super admin link, on every admin screen", async () => {
    for (const path of ["/dashboard", "/users", "/admin/settings", "/admin/flag-uploader"]) {
      signIn(buildUser({ role: "admin" }));
      mockUsersApi({ users: [buildListUser({ id: 1, username: "admin", role: "admin" })] });
      const { unmount } = renderApp(path);
      expect(await navLinks()).toEqual(ADMIN_LINKS);
      expect(screen.queryByRole("link", { name: "Audit log" })).toBeNull();
      unmount();
    }
  });

  it("gives a super admin the audit log and the flag uploader too, on every admin screen", async () => {
    for (const path of ["/dashboard", "/users", "/admin/settings", "/admin/audit", "/admin/anything"]) {
      signIn(buildUser({ role: "super_admin" }));
      mockFetch(() => jsonResponse(200, { data: [], rows: [], count: 0, choices: { actors: [], actions: [], entities: [] } }));
      const { unmount } = renderApp(path);
      expect(await navLinks()).toEqual(SUPER_ADMIN_LINKS);
      unmount();
    }
  });

  it("marks the page being shown, telling the three settings links apart", async () => {
    signIn(buildUser({ role: "admin" }));
    mockFetch(() => jsonResponse(200, { data: [] }));
    renderApp("/admin/settings#schools-and-cohorts");
    const nav = await screen.findByRole("navigation", { name: "Admin" });
    await waitFor(() =>
      expect(within(nav).getByRole("link", { name: "Schools & cohorts" }).getAttribute("aria-current")).toBe("page"),
    );
    expect(within(nav).getByRole("link", { name: "Settings" }).getAttribute("aria-current")).toBeNull();
    fireEvent.click(within(nav).getByRole("link", { name: "Settings" }));
    await waitFor(() => expect(within(nav).getByRole("link", { name: "Settings" }).getAttribute("aria-current")).toBe("page"));
  });

  it("opens the weekly import in one click from the dashboard", async () => {
    signIn(buildUser({ role: "admin" }));
    mockFetch(() => jsonResponse(200, { data: [] }));
    const { router } = renderApp("/dashboard");
    fireEvent.click(await screen.findByRole("link", { name: "Import week" }));
    expect(await screen.findByRole("dialog", { name: /Import/ })).toBeTruthy();
    expect(router.state.location.pathname).toBe("/admin/settings");
  });

  it("opens the weekly import from the navigation of another admin screen, and again after it was closed", async () => {
    signIn(buildUser({ role: "admin" }));
    mockFetch(() => jsonResponse(200, { data: [] }));
    renderApp("/users");
    const nav = await screen.findByRole("navigation", { name: "Admin" });
    fireEvent.click(within(nav).getByRole("link", { name: "Import week" }));
    const dialog = await screen.findByRole("dialog", { name: /Import/ });
    fireEvent.keyDown(dialog, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog", { name: /Import/ })).toBeNull());
    fireEvent.click(within(screen.getByRole("navigation", { name: "Admin" })).getByRole("link", { name: "Import week" }));
    expect(await screen.findByRole("dialog", { name: /Import/ })).toBeTruthy();
  });

  it("shows no admin navigation on the dashboard to a district user", async () => {
    signIn(buildUser({ role: "district_user", accessibleSchoolIds: [1] }));
    mockFetch(() => jsonResponse(200, { data: [] }));
    renderApp("/dashboard");
    await screen.findByRole("heading", { name: "District Dashboard" });
    expect(screen.queryByRole("navigation", { name: "Admin" })).toBeNull();
    expect(screen.queryByRole("link", { name: "Import week" })).toBeNull();
  });
});
