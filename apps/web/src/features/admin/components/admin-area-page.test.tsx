import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { renderApp } from "../../../testing/render-app";

describe("Admin Area (/admin/*)", () => {
  it("greets a super admin with links to the admin tools", async () => {
    signIn(buildUser({ role: "super_admin" }));
    mockFetch(() => jsonResponse(200, { data: [] }));
    renderApp("/admin/anything");
    expect(await screen.findByRole("heading", { level: 1, name: "Admin Area" })).toBeTruthy();
    const main = screen.getByRole("main");
    const links = [...main.querySelectorAll("a")].map((a) => [a.textContent, a.getAttribute("href")]);
    expect(links).toEqual([
      ["Admin Settings", "/admin/settings"],
      ["User Management", "/users"],
      ["Flag Uploader", "/admin/flag-uploader"],
      ["Audit Log", "/admin/audit"],
      ["Dashboard", "/dashboard"],
      ["API Debug", "/debug"],
      ["API Reference", "/api/docs"],
    ]);
  });

  it("is refused to an admin", async () => {
    signIn(buildUser({ role: "admin" }));
    mockFetch(() => jsonResponse(200, { data: [] }));
    const { router } = renderApp("/admin/anything");
    await screen.findByRole("heading", { name: "Access Denied" });
    expect(router.state.location.pathname).toBe("/unauthorized");
  });
});
