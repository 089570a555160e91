import { MESSAGES } from "@tally/contract";
import { act, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { authStore } from "../lib/auth-store";
import { hardNavigation } from "../lib/hard-navigation";
import { jsonResponse, mockFetch } from "../testing/mock-fetch";
import { buildUser, signIn } from "../testing/signed-in-user";
import { renderApp } from "../testing/render-app";

let assign: ReturnType<typeof vi.fn<(url: string) => void>>;

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  assign = vi.fn<(url: string) => void>();
  vi.spyOn(hardNavigation, "assign").mockImplementation(assign);
});

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe("session watch", () => {
  it("checks the profile every 10 s and keeps the stored user current", async () => {
    const user = buildUser({ role: "district_user", accessibleSchoolIds: [1] });
    signIn(user);
    const fetchMock = mockFetch(() =>
      jsonResponse(200, { user: { ...user, accessibleSchoolIds: [1, 2] } }),
    );
    renderApp("/dashboard");
    await screen.findByText("1 Schools Overview");
    // The dashboard loads its own data; only profile checks count here.
    expect(fetchMock.mock.calls.filter(([url]) => url === "/api/auth/profile")).toHaveLength(0);
    await advance(10_000);
    expect(fetchMock.mock.calls.filter(([url]) => url === "/api/auth/profile")).toHaveLength(1);
    expect(await screen.findByText("2 Schools Overview")).toBeTruthy();
    await advance(10_000);
    expect(fetchMock.mock.calls.filter(([url]) => url === "/api/auth/profile")).toHaveLength(2);
  });

  it("forces a new sign-in when the profile check answers SESSION_VERSION_MISMATCH", async () => {
    signIn(buildUser({ role: "admin" }));
    mockFetch(() => jsonResponse(401, { error: "Changed", code: "SESSION_VERSION_MISMATCH" }));
    renderApp("/dashboard");
    await screen.findByRole("heading", { name: "Admin Dashboard" });
    await advance(10_000);
    expect(assign).toHaveBeenCalledWith("/login?session=expired");
    expect(sessionStorage.getItem("tally.sessionMessage")).toBe(MESSAGES.sessionVersionMismatch);
    expect(authStore.get().token).toBeNull();
  });

  it("refreshes the token every 10 minutes and stores the rotated refresh token", async () => {
    signIn(buildUser({ role: "admin" }), "t1", "r1");
    const fetchMock = mockFetch((url) => {
      if (url === "/api/auth/refresh") return jsonResponse(200, { token: "t2", refreshToken: "r2" });
      return jsonResponse(200, { user: authStore.get().user });
    });
    renderApp("/dashboard");
    await screen.findByRole("heading", { name: "Admin Dashboard" });
    await advance(10 * 60_000);
    expect(fetchMock.mock.calls.filter(([url]) => url === "/api/auth/refresh")).toHaveLength(1);
    expect(authStore.get()).toMatchObject({ token: "t2", refreshToken: "r2" });
  });
});
