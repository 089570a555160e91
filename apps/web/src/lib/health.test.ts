import { describe, expect, it, vi } from "vitest";
import { checkHealth, healthStore, lastSyncTime, startHealthMonitor, suspectApiDown } from "./health";

const reply = (status: number) => new Response(JSON.stringify({ status: "ok" }), { status });

describe("API health (spec section 4)", () => {
  it("is online when the check answers below 500, and keeps the last sync time", async () => {
    const fetchMock = vi.fn(async () => reply(404));
    vi.stubGlobal("fetch", fetchMock);
    const result = await checkHealth();
    expect(result.ok).toBe(true);
    expect(healthStore.get()).toMatchObject({ isOnline: true, error: null, retryCount: 0 });
    expect(lastSyncTime()).toBe(healthStore.get().lastChecked);
    expect(fetchMock).toHaveBeenCalledWith("/api/health-check", expect.objectContaining({ credentials: "omit" }));
  });

  it("is offline with the spec's texts for a 5xx answer and for no answer", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => reply(503)));
    await checkHealth();
    expect(healthStore.get()).toMatchObject({ isOnline: false, error: "API server is experiencing issues", retryCount: 1 });
    expect(lastSyncTime()).toBeNull();

    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    await checkHealth();
    expect(healthStore.get()).toMatchObject({ isOnline: false, error: "Cannot connect to the API server", retryCount: 2 });
  });

  it("retries every 15 s while offline and stops once the server answers", async () => {
    vi.useFakeTimers();
    let up = false;
    const fetchMock = vi.fn(async () => (up ? reply(200) : Promise.reject(new TypeError("Failed to fetch"))));
    vi.stubGlobal("fetch", fetchMock);
    const stop = startHealthMonitor();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(healthStore.get().isOnline).toBe(false);

    await vi.advanceTimersByTimeAsync(15_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    up = true;
    await vi.advanceTimersByTimeAsync(15_000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(healthStore.get().isOnline).toBe(true);

    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    stop();
  });

  it("goes offline at once on the browser's offline event and checks again when it is back", async () => {
    const fetchMock = vi.fn(async () => reply(200));
    vi.stubGlobal("fetch", fetchMock);
    const stop = startHealthMonitor();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    window.dispatchEvent(new Event("offline"));
    expect(healthStore.get()).toMatchObject({ isOnline: false, error: "Your device is offline" });
    window.dispatchEvent(new Event("online"));
    await vi.waitFor(() => expect(healthStore.get().isOnline).toBe(true));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    stop();
  });


  it("checks when a request got no answer while the app thought it was online, and only then", async () => {
    const fetchMock = vi.fn(async () => Promise.reject(new TypeError("Failed to fetch")));
    vi.stubGlobal("fetch", fetchMock);
    suspectApiDown();
    await vi.waitFor(() => expect(healthStore.get().isOnline).toBe(false));
    expect(healthStore.get().error).toBe("Cannot connect to the API server");
    suspectApiDown();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
