import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Text } from "@mantine/core";
import type { RouteObject } from "react-router";
import { DEMO_SETTINGS_DEFAULTS } from "@tally/contract";
import { jsonResponse, mockFetch } from "../testing/mock-fetch";
import { buildUser, signIn } from "../testing/signed-in-user";
import { renderApp } from "../testing/render-app";
import { RouteGuard } from "./route-guard";

const demo = (over: object) => mockFetch(() => jsonResponse(200, { data: { ...DEMO_SETTINGS_DEFAULTS, ...over } }));

describe("route guard", () => {
  it("sends a visitor without a session to /login", async () => {
    const { router } = renderApp("/dashboard");
    expect(await screen.findByLabelText("Username or Email")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/login");
    expect(router.state.location.state).toEqual({ from: "/dashboard" });
  });

  it("sends a user without the role to /unauthorized", async () => {
    signIn(buildUser({ role: "district_user" }));
    const { router } = renderApp("/admin/flag-uploader");
    expect(await screen.findByRole("heading", { name: "Access Denied" })).toBeTruthy();
    expect(router.state.location.pathname).toBe("/unauthorized");
  });

  it("lets super_admin into /admin/flag-uploader and the /admin/* area", async () => {
    signIn(buildUser({ role: "super_admin" }));
    const first = renderApp("/admin/flag-uploader");
    expect(await screen.findByRole("heading", { name: "Flag Uploader" })).toBeTruthy();
    expect(first.router.state.location.pathname).toBe("/admin/flag-uploader");
    first.unmount();
    renderApp("/admin/anything/else");
    expect(await screen.findByText("Admin Area")).toBeTruthy();
  });

  it("keeps admin out of /admin/* but not /admin/settings", async () => {
    signIn(buildUser({ role: "admin" }));
    const first = renderApp("/admin/other");
    await screen.findByRole("heading", { name: "Access Denied" });
    first.unmount();
    renderApp("/admin/settings");
    expect(await screen.findByRole("heading", { name: "Admin Settings" })).toBeTruthy();
  });

  it("sends a school_user to /unauthorized for another school's dashboard", async () => {
    signIn(buildUser({ role: "school_user", school_id: 5, school_name: "Hillside High" }));
    mockFetch(() => jsonResponse(200, { data: DEMO_SETTINGS_DEFAULTS }));
    const { router } = renderApp("/school/9/dashboard");
    await screen.findByRole("heading", { name: "Access Denied" });
    expect(router.state.location.pathname).toBe("/unauthorized");
  });

  it("lets users into the demo school's dashboard only as the demo settings allow", async () => {
    signIn(buildUser({ role: "school_user", school_id: 5 }));
    demo({ schoolAccess: false });
    const first = renderApp("/school/123/dashboard");
    await screen.findByRole("heading", { name: "Access Denied" });
    expect(first.router.state.location.pathname).toBe("/unauthorized");
    first.unmount();

    demo({ schoolAccess: true });
    renderApp("/school/123/dashboard");
    expect(await screen.findByRole("heading", { name: "Demo High School Dashboard" }, { timeout: 4000 })).toBeTruthy();
  });

  it("shows a school_user their own school dashboard", async () => {
    signIn(buildUser({ role: "school_user", school_id: 5, school_name: "Hillside High" }));
    renderApp("/school/5/dashboard");
    expect(await screen.findByRole("heading", { name: "Hillside High Dashboard" })).toBeTruthy();
    expect(screen.getByText("Student and Attendance Overview")).toBeTruthy();
  });

  it("keeps a school_user off /dashboard and sends / to their school", async () => {
    signIn(buildUser({ role: "school_user", school_id: 5 }));
    const first = renderApp("/dashboard");
    await waitFor(() => expect(first.router.state.location.pathname).toBe("/unauthorized"));
    first.unmount();
    const second = renderApp("/");
    await waitFor(() => expect(second.router.state.location.pathname).toBe("/school/5/dashboard"));
  });

  it("redirects / to /dashboard for admin", async () => {
    signIn(buildUser({ role: "admin" }));
    const { router } = renderApp("/");
    expect(await screen.findByRole("heading", { name: "Admin Dashboard" })).toBeTruthy();
    expect(screen.getByText("Manage students and view analytics")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/dashboard");
  });

  it("allows a route by a named permission and refuses without it", async () => {
    const routes: RouteObject[] = [
      {
        path: "/reports",
        element: <RouteGuard rule={{ permission: "importData" }} />,
        children: [{ index: true, element: <Text>Import reports</Text> }],
      },
      { path: "/unauthorized", element: <Text>Nope</Text> },
      { path: "/login", element: <Text>Login</Text> },
    ];
    const user = buildUser({ role: "district_user" });
    signIn({ ...user, permissions: { ...user.permissions, importData: true } });
    const allowed = renderApp("/reports", routes);
    expect(await screen.findByText("Import reports")).toBeTruthy();
    allowed.unmount();

    signIn(buildUser({ role: "district_user" }));
    const refused = renderApp("/reports", routes);
    expect(await screen.findByText("Nope")).toBeTruthy();
    expect(refused.router.state.location.pathname).toBe("/unauthorized");
  });
});

describe("dashboard variants", () => {
  it("shows the district dashboard with the school count", async () => {
    signIn(buildUser({ role: "district_user", accessibleSchoolIds: [1, 2, 3] }));
    renderApp("/dashboard");
    expect(await screen.findByRole("heading", { name: "District Dashboard" })).toBeTruthy();
    expect(screen.getByText("3 Schools Overview")).toBeTruthy();
    expect(screen.queryByTestId("no-schools-notice")).toBeNull();
  });

  it("shows the no-schools notice with a Logout button when the district user has no school", async () => {
    signIn(buildUser({ role: "district_user", accessibleSchoolIds: [] }));
    renderApp("/dashboard");
    await screen.findByText("0 Schools Overview");
    const notice = screen.getByTestId("no-schools-notice");
    expect(notice.textContent).toContain(
      "No Schools Available: You currently don't have access to any schools in the system.",
    );
    expect(notice.textContent).toContain(
      "Please contact an administrator to get school access assigned to your account.",
    );
    expect(screen.getAllByRole("button", { name: "Logout" })).toHaveLength(2);
  });

  it("shows the general header with e-mail, role label and Settings for admins only", async () => {
    signIn(buildUser({ role: "super_admin", email: "boss@example.org" }));
    const first = renderApp("/dashboard");
    await screen.findByRole("heading", { name: "Admin Dashboard" });
    expect(screen.getByText("boss@example.org")).toBeTruthy();
    expect(screen.getByText("Super Admin")).toBeTruthy();
    expect(within(screen.getByRole("banner")).getByRole("link", { name: "Settings" }).getAttribute("href")).toBe("/admin/settings");
    expect(screen.getByPlaceholderText("Search by student name, cohort, team, school")).toBeTruthy();
    first.unmount();

    signIn(buildUser({ role: "district_user", accessibleSchoolIds: [1] }));
    renderApp("/dashboard");
    await screen.findByRole("heading", { name: "District Dashboard" });
    expect(screen.queryByRole("link", { name: "Settings" })).toBeNull();
    expect(screen.getByText("School User")).toBeTruthy();
  });

  it("shows Flag Uploader in the admin navigation only for super_admin", async () => {
    signIn(buildUser({ role: "admin" }));
    const first = renderApp("/users");
    await screen.findByRole("heading", { name: "User Management" });
    expect(screen.getByText("Tally Admin")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Back to Dashboard" })).toBeTruthy();
    const nav = screen.getByRole("navigation", { name: "Admin" });
    expect(nav.textContent).toContain("Users");
    expect(nav.textContent).not.toContain("Flag Uploader");
    first.unmount();

    signIn(buildUser({ role: "super_admin" }));
    renderApp("/users");
    await screen.findByRole("heading", { name: "User Management" });
    expect(screen.getByRole("navigation", { name: "Admin" }).textContent).toContain("Flag Uploader");
  });
});
