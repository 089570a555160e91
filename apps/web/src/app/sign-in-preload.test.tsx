import { act, fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderApp } from "../testing/render-app";

// Counts when the dashboards' code is asked for: the sign-in page must not ask on its own load.
const asked = vi.hoisted(() => ({ dashboard: 0, school: 0 }));
vi.mock("../features/dashboard/components/dashboard-page", () => {
  asked.dashboard += 1;
  return { DashboardPage: () => null };
});
vi.mock("../features/dashboard/components/school-dashboard-page", () => {
  asked.school += 1;
  return { SchoolDashboardPage: () => null };
});

describe("the sign-in page and the dashboards' code", () => {
  it("fetches no dashboard code on load, and fetches it once someone starts signing in", async () => {
    renderApp("/login");
    const field = await screen.findByRole("textbox", { name: "Username or Email" });
    // Give any preload started by the page's load time to show.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(asked).toEqual({ dashboard: 0, school: 0 });

    act(() => field.focus());
    fireEvent.input(field, { target: { value: "a" } });
    await vi.waitFor(() => expect(asked).toEqual({ dashboard: 1, school: 1 }));
  });
});
