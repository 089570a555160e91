import { MESSAGES } from "@tally/contract";
import { act, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { authStore } from "../lib/auth-store";
import { healthStore } from "../lib/health";
import { hardNavigation } from "../lib/hard-navigation";
import { jsonResponse, mockFetch } from "../testing/mock-fetch";
import { buildUser, signIn } from "../testing/signed-in-user";
import { FakeEventSource } from "../testing/fake-event-source";
import { renderApp } from "../testing/render-app";

let assign: ReturnType<typeof vi.fn<(url: string) => void>>;

beforeEach(() => {
  assign = vi.fn<(url: string) => void>();
  vi.spyOn(hardNavigation, "assign").mockImplementation(assign);
  mockFetch(() => jsonResponse(200, { data: [] }));
});

describe("notification watch", () => {
  it("opens no stream while signed out", async () => {
    renderApp("/login");
    await screen.findByRole("heading", { name: "Sign in to Tally" });
    expect(FakeEventSource.instances).toHaveLength(0);
  });

  it("opens the stream with the signed-in token and obeys FORCE_LOGOUT", async () => {
    signIn(buildUser({ role: "admin" }), "tok-live");
    renderApp("/dashboard");
    await screen.findByRole("heading", { name: "Admin Dashboard" });
    const [source] = FakeEventSource.open();
    expect(source?.url).toBe("/api/notifications?token=tok-live");
    act(() => {
      source!.open();
      source!.send({ id: 0, type: "CONNECTED", createdAt: "2026-11-25T10:00:00.000Z" });
      source!.send({ id: 4, type: "FORCE_LOGOUT", reason: "ACCOUNT_DEACTIVATED", createdAt: "2026-11-25T10:00:01.000Z" });
    });
    expect(assign).toHaveBeenCalledWith("/login?session=expired");
    expect(sessionStorage.getItem("tally.sessionMessage")).toBe(MESSAGES.sessionVersionMismatch);
    expect(authStore.get().token).toBeNull();
    // The cleared session closes the stream.
    expect(FakeEventSource.open()).toHaveLength(0);
  });

  it("rereads the alerts on screen (the dashboard's Needs attention card) on ALERTS_CHANGED, and only then", async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, { data: [] }));
    signIn(buildUser({ role: "admin" }), "tok-live");
    renderApp("/dashboard");
    await screen.findByRole("heading", { name: "Admin Dashboard" });
    const summaryReads = () => fetchMock.mock.calls.filter(([url]) => String(url).startsWith("/api/alerts/summary")).length;
    await vi.waitFor(() => expect(summaryReads()).toBe(1));
    const [source] = FakeEventSource.open();
    act(() => {
      source!.open();
      source!.send({ id: 0, type: "CONNECTED", createdAt: "2026-11-25T10:00:00.000Z" });
    });
    expect(summaryReads()).toBe(1);
    act(() => source!.send({ id: 0, type: "ALERTS_CHANGED", createdAt: "2026-11-25T10:00:01.000Z" }));
    await vi.waitFor(() => expect(summaryReads()).toBe(2));
    expect(authStore.get().token).toBe("tok-live");
  });

  it("a stream closed because its sign-in ended leads to the sign-in page with the expired notice, without reconnecting", async () => {
    signIn(buildUser({ role: "admin" }), "tok-live");
    renderApp("/dashboard");
    await screen.findByRole("heading", { name: "Admin Dashboard" });
    const [source] = FakeEventSource.open();
    act(() => {
      source!.open();
      source!.send({ id: 0, type: "STREAM_CLOSED", reason: "SIGNED_OUT", message: "Signed out", createdAt: "2026-11-25T10:00:00.000Z" });
      source!.fail();
    });
    expect(assign).toHaveBeenCalledWith("/login?session=expired");
    expect(sessionStorage.getItem("tally.sessionMessage")).toBe(MESSAGES.sessionExpired);
    expect(authStore.get().token).toBeNull();
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it("a stream closed at its token's expiry is reopened at once with the refreshed token", async () => {
    const fetchMock = mockFetch((url) =>
      url === "/api/auth/refresh" ? jsonResponse(200, { token: "tok-new", refreshToken: "refresh-2" }) : jsonResponse(200, { data: [] }),
    );
    signIn(buildUser({ role: "admin" }), "tok-old");
    renderApp("/dashboard");
    await screen.findByRole("heading", { name: "Admin Dashboard" });
    const [source] = FakeEventSource.open();
    expect(source?.url).toBe("/api/notifications?token=tok-old");
    act(() => {
      source!.open();
      source!.send({ id: 0, type: "STREAM_CLOSED", reason: "TOKEN_EXPIRED", message: "Expired", createdAt: "2026-11-25T10:00:00.000Z" });
      source!.fail();
    });
    await vi.waitFor(() => expect(FakeEventSource.open().map((s) => s.url)).toEqual(["/api/notifications?token=tok-new"]));
    expect(fetchMock.mock.calls.filter(([url]) => url === "/api/auth/refresh")).toHaveLength(1);
    expect(authStore.get().token).toBe("tok-new");
    expect(assign).not.toHaveBeenCalled();
  });

  it("a stream superseded by a newer tab's stays closed: this tab polls instead", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = mockFetch(() => jsonResponse(200, { data: [] }));
    signIn(buildUser({ role: "admin" }), "tok-live");
    renderApp("/dashboard");
    await screen.findByRole("heading", { name: "Admin Dashboard" });
    act(() => {
      const source = FakeEventSource.latest()!;
      source.open();
      source.send({ id: 0, type: "STREAM_CLOSED", reason: "SUPERSEDED", message: "Superseded", createdAt: "2026-11-25T10:00:00.000Z" });
      source.fail();
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60_000);
    });
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(fetchMock.mock.calls.some(([url]) => url === "/api/notifications-poll?token=tok-live")).toBe(true);
    expect(authStore.get().token).toBe("tok-live");
  });

  it("closes the stream on sign-out, in this tab or another, and when the page is left", async () => {
    signIn(buildUser({ role: "admin" }));
    renderApp("/dashboard");
    await screen.findByRole("heading", { name: "Admin Dashboard" });
    expect(FakeEventSource.open()).toHaveLength(1);
    // Another tab signs out: the storage event reloads the store.
    act(() => {
      localStorage.clear();
      window.dispatchEvent(new StorageEvent("storage", { key: null }));
    });
    expect(FakeEventSource.open()).toHaveLength(0);

    act(() => signIn(buildUser({ role: "admin" })));
    expect(FakeEventSource.open()).toHaveLength(1);
    act(() => {
      window.dispatchEvent(new Event("pagehide"));
    });
    expect(FakeEventSource.open()).toHaveLength(0);
  });

  it("asks the health check when the stream drops, so a stopped server is noticed", async () => {
    signIn(buildUser({ role: "admin" }));
    renderApp("/dashboard");
    await screen.findByRole("heading", { name: "Admin Dashboard" });
    const fetchMock = mockFetch(() => Promise.reject(new TypeError("Failed to fetch")));
    act(() => FakeEventSource.open()[0]!.fail());
    expect(await screen.findByRole("heading", { name: "Server Connection Error" })).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => url === "/api/health-check")).toBe(true);
  });

  it("tries the stream again once the API is back after a restart that outlasted the reconnects", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn(buildUser({ role: "admin" }));
    renderApp("/dashboard");
    await screen.findByRole("heading", { name: "Admin Dashboard" });
    act(() => healthStore.setOffline("Cannot connect to the API server"));
    for (let i = 0; i <= 5; i++) {
      act(() => FakeEventSource.latest()!.fail());
      await act(async () => {
        await vi.advanceTimersByTimeAsync(5_000);
      });
    }
    expect(FakeEventSource.instances).toHaveLength(6);
    expect(FakeEventSource.open()).toHaveLength(0);
    act(() => healthStore.reset());
    expect(FakeEventSource.instances).toHaveLength(7);
    expect(FakeEventSource.open()).toHaveLength(1);
  });
});
