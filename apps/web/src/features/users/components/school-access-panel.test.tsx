import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { jsonResponse } from "../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { renderApp } from "../../../testing/render-app";
import { buildListUser, buildSchools, mockUsersApi } from "../../../testing/fake-users-api";

const schools = buildSchools(25);

function world() {
  return {
    users: [
      buildListUser({
        id: 4,
        username: "dana",
        role: "district_user",
        school_ids: [1, 2],
        school_names: ["School 01", "School 02"],
      }),
    ],
    schools,
  };
}

async function openPanel() {
  fireEvent.click(await screen.findByRole("button", { name: "Manage Schools" }));
  const dialog = await screen.findByRole("dialog", { name: "School Access Management" });
  await within(dialog).findByText("Manage School Access for dana");
  return dialog;
}

const suggestions = (dialog: HTMLElement) =>
  within(within(dialog).getByTestId("school-suggestions")).getAllByRole("button").map((b) => b.textContent);

describe("Manage School Access panel", () => {
  it("lists the assigned schools and at most ten suggestions, excluding them", async () => {
    signIn(buildUser({ id: 1, role: "admin" }));
    mockUsersApi(world());
    renderApp("/users");
    const dialog = await openPanel();
    expect(within(dialog).getByTestId("schools-assigned").textContent).toBe("2 schools assigned");
    expect(within(within(dialog).getByTestId("selected-schools")).getByText("School 01")).toBeTruthy();
    const shown = suggestions(dialog);
    expect(shown).toHaveLength(10);
    expect(shown[0]).toBe("+ School 03");
    expect(shown).not.toContain("+ School 01");
    expect(within(dialog).getByText("13 more schools available. Refine your search.")).toBeTruthy();
    const search = within(dialog).getByPlaceholderText("Search schools...");
    fireEvent.change(search, { target: { value: "school 2" } });
    expect(suggestions(dialog)).toEqual(["+ School 20", "+ School 21", "+ School 22", "+ School 23", "+ School 24", "+ School 25"]);
    expect(within(dialog).queryByText(/more schools available/)).toBeNull();
    fireEvent.change(search, { target: { value: "school 01" } });
    expect(within(dialog).getByText("No more schools available")).toBeTruthy();
  });

  it("adds and removes schools and saves them with Save Access", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn(buildUser({ id: 1, role: "admin" }));
    const fetchMock = mockUsersApi(world());
    renderApp("/users");
    const dialog = await openPanel();
    fireEvent.click(within(dialog).getByRole("button", { name: "Remove School 01" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Remove School 02" }));
    expect(within(dialog).getByText("No schools selected")).toBeTruthy();
    expect(within(dialog).getByTestId("schools-assigned").textContent).toBe("No schools assigned");
    fireEvent.change(within(dialog).getByPlaceholderText("Search schools..."), { target: { value: "07" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Add School 07" }));
    expect(within(dialog).getByTestId("schools-assigned").textContent).toBe("1 school assigned");
    fireEvent.click(within(dialog).getByRole("button", { name: "Save Access" }));
    expect((await within(dialog).findByTestId("success-banner")).textContent).toContain(
      "School access updated successfully!",
    );
    const put = fetchMock.mock.calls.find(([u, i]) => String(u).endsWith("/api/users/4/schools") && i?.method === "PUT");
    expect(JSON.parse(String(put![1]!.body))).toEqual({ schoolIds: [7] });
    act(() => vi.advanceTimersByTime(3_000));
    expect(within(dialog).queryByTestId("success-banner")).toBeNull();
  });

  it("shows Saving... while saving and the failure text", async () => {
    signIn(buildUser({ id: 1, role: "admin" }));
    let answer: ((r: Response) => void) | undefined;
    mockUsersApi({
      ...world(),
      overrides: {
        "PUT /users/4/schools": () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }) as unknown as Response,
      },
    });
    renderApp("/users");
    const dialog = await openPanel();
    fireEvent.click(within(dialog).getByRole("button", { name: "Save Access" }));
    expect(await within(dialog).findByRole("button", { name: "Saving..." })).toBeTruthy();
    answer?.(new Response("", { status: 500 }));
    expect((await within(dialog).findByTestId("error-banner")).textContent).toContain(
      "Failed to save school access. Please try again.",
    );
  });

  it("says so when the schools cannot be loaded", async () => {
    signIn(buildUser({ id: 1, role: "admin" }));
    mockUsersApi({ ...world(), overrides: { "GET /schools": () => jsonResponse(500, {}) } });
    renderApp("/users");
    fireEvent.click(await screen.findByRole("button", { name: "Manage Schools" }));
    const dialog = await screen.findByRole("dialog", { name: "School Access Management" });
    await waitFor(() => expect(within(dialog).getByText("Failed to load schools. Please try again.")).toBeTruthy());
  });
});
