import { LIMITS, MESSAGES } from "@tally/contract";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { headerOf, jsonResponse, mockFetch } from "../testing/mock-fetch";
import { describeSessionRefresh } from "../testing/session-refresh-cases";
import { buildUser, signIn } from "../testing/signed-in-user";
import { ApiError, apiRequest, SESSION_EXPIRED_PATH, TWO_STEP_PATH, withSessionRefresh } from "./api-client";
import { authStore } from "./auth-store";
import { healthStore } from "./health";
import { hardNavigation } from "./hard-navigation";

let assign: ReturnType<typeof vi.fn<(url: string) => void>>;

beforeEach(() => {
  assign = vi.fn<(url: string) => void>();
  vi.spyOn(hardNavigation, "assign").mockImplementation(assign);
});

/** A fetch that never answers on its own but rejects when its signal aborts, like the real one. */
function hangingFetch(url: string, init: RequestInit): Promise<Response> {
  void url;
  return new Promise((_, reject) => {
    init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
  });
}

describe("apiRequest", () => {
  it("sends the bearer token and parses JSON", async () => {
    signIn(buildUser(), "tok-123");
    const fetchMock = mockFetch(() => jsonResponse(200, { hello: "world" }));
    await expect(apiRequest("/things", { query: { a: 1, b: undefined } })).resolves.toEqual({ hello: "world" });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/things?a=1");
    expect(headerOf(init, "Authorization")).toBe("Bearer tok-123");
    expect(init?.credentials).toBe("include");
  });

  it("retries network failures three times with 1 s, 2 s, 4 s delays, then succeeds", async () => {
    vi.useFakeTimers();
    let calls = 0;
    const fetchMock = mockFetch(() => {
      calls++;
      if (calls <= 3) throw new TypeError("Failed to fetch");
      return jsonResponse(200, { ok: true });
    });
    const result = apiRequest("/things");
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(3_999);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(4);
    await expect(result).resolves.toEqual({ ok: true });
  });

  it("gives up after three retries with a network ApiError", async () => {
    vi.useFakeTimers();
    const fetchMock = mockFetch(() => {
      throw new TypeError("Failed to fetch");
    });
    const result = apiRequest("/things");
    const settled = expect(result).rejects.toMatchObject({ status: 0, code: "NETWORK_ERROR" });
    await vi.advanceTimersByTimeAsync(7_000);
    await settled;
    expect(fetchMock).toHaveBeenCalledTimes(1 + LIMITS.maxRetries);
  });

  it("sends an admin who must set up two-step sign-in to it (MFA_ENROLMENT_REQUIRED), and still throws", async () => {
    signIn(buildUser({ role: "admin" }), "tok-123");
    mockFetch(() => jsonResponse(403, { error: "Set it up", code: "MFA_ENROLMENT_REQUIRED" }));
    await expect(apiRequest("/users")).rejects.toMatchObject({ status: 403, code: "MFA_ENROLMENT_REQUIRED" });
    expect(assign).toHaveBeenCalledWith(TWO_STEP_PATH);
    mockFetch(() => jsonResponse(403, { error: "Not yours", code: "FORBIDDEN" }));
    await expect(apiRequest("/users")).rejects.toMatchObject({ status: 403 });
    expect(assign).toHaveBeenCalledTimes(1);
  });

  it("does not retry HTTP errors and throws the server's text and code", async () => {
    const fetchMock = mockFetch(() => jsonResponse(500, { error: "Boom", code: "INTERNAL" }));
    const error = await apiRequest("/things").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, code: "INTERNAL", message: "Boom", fromServer: true });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("aborts after 15 s without retrying", async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | null | undefined;
    const fetchMock = mockFetch((url, init) => {
      signal = init.signal;
      return hangingFetch(url, init);
    });
    const result = apiRequest("/slow");
    const settled = expect(result).rejects.toMatchObject({ status: 0, code: "TIMEOUT" });
    await vi.advanceTimersByTimeAsync(LIMITS.requestTimeoutMs - 1);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signal?.aborted).toBe(true);
    await settled;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("uses a 5 s timeout while the API is offline", async () => {
    vi.useFakeTimers();
    healthStore.setOffline("Cannot connect to the API server");
    mockFetch(hangingFetch);
    const result = apiRequest("/slow");
    const settled = expect(result).rejects.toMatchObject({ code: "TIMEOUT" });
    await vi.advanceTimersByTimeAsync(LIMITS.offlineRequestTimeoutMs);
    await settled;
  });

  it("shares one refresh between concurrent 401s and retries each request with the new token", async () => {
    signIn(buildUser(), "old-token", "refresh-1");
    let releaseRefresh!: () => void;
    const refreshGate = new Promise<void>((resolve) => (releaseRefresh = resolve));
    const refreshBodies: unknown[] = [];
    const fetchMock = mockFetch(async (url, init) => {
      if (url === "/api/auth/refresh") {
        refreshBodies.push(JSON.parse(String(init.body)));
        await refreshGate;
        return jsonResponse(200, { token: "new-token", refreshToken: "refresh-2" });
      }
      if (headerOf(init, "Authorization") === "Bearer old-token") {
        return jsonResponse(401, { error: "Token expired", code: "TOKEN_EXPIRED" });
      }
      return jsonResponse(200, { path: url });
    });

    const requests = [apiRequest("/a"), apiRequest("/b"), apiRequest("/c")];
    await vi.waitFor(() => expect(refreshBodies).toHaveLength(1));
    releaseRefresh();
    await expect(Promise.all(requests)).resolves.toEqual([
      { path: "/api/a" },
      { path: "/api/b" },
      { path: "/api/c" },
    ]);
    const refreshCalls = fetchMock.mock.calls.filter(([url]) => url === "/api/auth/refresh");
    expect(refreshCalls).toHaveLength(1);
    expect(refreshBodies[0]).toEqual({ refreshToken: "refresh-1" });
    expect(authStore.get()).toMatchObject({ token: "new-token", refreshToken: "refresh-2" });
    expect(assign).not.toHaveBeenCalled();
  });

  it("takes turns with other tabs: a refresh another tab finished meanwhile is used, not repeated", async () => {
    signIn(buildUser(), "old-token", "refresh-1");
    // Another tab holds the refresh lock; when it lets go, it has stored a new pair.
    let otherTabDone!: () => void;
    const otherTab = new Promise<void>((resolve) => (otherTabDone = resolve));
    const queued: string[] = [];
    vi.stubGlobal("navigator", {
      ...navigator,
      locks: {
        request: async (name: string, task: () => Promise<void>) => {
          queued.push(name);
          await otherTab;
          return task();
        },
      },
    });
    const fetchMock = mockFetch(async (url, init) => {
      if (url === "/api/auth/refresh") return jsonResponse(200, { token: "mine", refreshToken: "mine-refresh" });
      return headerOf(init, "Authorization") === "Bearer old-token"
        ? jsonResponse(401, { error: "Token expired", code: "TOKEN_EXPIRED" })
        : jsonResponse(200, { auth: headerOf(init, "Authorization") });
    });

    const request = apiRequest("/things");
    await vi.waitFor(() => expect(queued).toEqual(["tally-token-refresh"]));
    localStorage.setItem("tally.token", "other-tab-token");
    localStorage.setItem("tally.refreshToken", "other-tab-refresh");
    otherTabDone();

    await expect(request).resolves.toEqual({ auth: "Bearer other-tab-token" });
    expect(fetchMock.mock.calls.some(([url]) => url === "/api/auth/refresh")).toBe(false);
    expect(authStore.get()).toMatchObject({ token: "other-tab-token", refreshToken: "other-tab-refresh" });
    vi.unstubAllGlobals();
  });

  it("ends the session on SESSION_VERSION_MISMATCH without refreshing", async () => {
    signIn(buildUser(), "tok", "refresh-1");
    const fetchMock = mockFetch(() =>
      jsonResponse(401, { error: "Session changed", code: "SESSION_VERSION_MISMATCH" }),
    );
    await expect(apiRequest("/things")).rejects.toMatchObject({ status: 401, code: "SESSION_VERSION_MISMATCH" });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(authStore.get()).toEqual({ token: null, refreshToken: null, user: null });
    expect(localStorage.getItem("tally.token")).toBeNull();
    expect(sessionStorage.getItem("tally.sessionMessage")).toBe(MESSAGES.sessionVersionMismatch);
    expect(assign).toHaveBeenCalledWith(SESSION_EXPIRED_PATH);
    expect(SESSION_EXPIRED_PATH).toBe("/login?session=expired");
  });

  it("ends the session with the expiry message when the refresh is refused", async () => {
    signIn(buildUser(), "tok", "refresh-1");
    mockFetch((url) =>
      url === "/api/auth/refresh"
        ? jsonResponse(401, { error: "Invalid refresh token", code: "INVALID_TOKEN" })
        : jsonResponse(401, { error: "Token expired", code: "TOKEN_EXPIRED" }),
    );
    await expect(apiRequest("/things")).rejects.toBeInstanceOf(ApiError);
    expect(authStore.get().token).toBeNull();
    expect(sessionStorage.getItem("tally.sessionMessage")).toBe(MESSAGES.sessionExpired);
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith("/login?session=expired");
  });

  it("logs out when there is no refresh token", async () => {
    signIn(buildUser(), "tok", "");
    authStore.set({ refreshToken: null });
    const fetchMock = mockFetch(() => jsonResponse(401, { error: "Token expired", code: "TOKEN_EXPIRED" }));
    await expect(apiRequest("/things")).rejects.toBeInstanceOf(ApiError);
    expect(fetchMock.mock.calls.some(([url]) => url === "/api/auth/refresh")).toBe(false);
    expect(authStore.get().user).toBeNull();
    expect(assign).toHaveBeenCalledWith("/login?session=expired");
  });

  it("does not refresh or redirect on a public call's 401", async () => {
    mockFetch(() => jsonResponse(401, { error: "Invalid credentials", code: "INVALID_CREDENTIALS" }));
    await expect(
      apiRequest("/auth/login", { method: "POST", body: { login: "a", password: "b" }, auth: false }),
    ).rejects.toMatchObject({ message: "Invalid credentials", code: "INVALID_CREDENTIALS" });
    expect(assign).not.toHaveBeenCalled();
  });
});

describeSessionRefresh(() => apiRequest("/things"));

const refused = (status: number, code: string) => ({ ok: false as const, error: new ApiError(status, code, "refused", true) });

describe("withSessionRefresh", () => {
  it("sends once with no token and never refreshes when the call is public (auth: false)", async () => {
    signIn(buildUser(), "tok", "refresh-1");
    const tokens: Array<string | null> = [];
    const call = withSessionRefresh(async (token) => {
      tokens.push(token);
      return refused(401, "INVALID_CREDENTIALS");
    }, { auth: false });
    await expect(call).rejects.toMatchObject({ status: 401, code: "INVALID_CREDENTIALS" });
    expect(tokens).toEqual([null]);
    expect(authStore.get().token).toBe("tok");
  });

  it("passes a 401 through untouched when refresh is off (logout)", async () => {
    signIn(buildUser(), "tok", "refresh-1");
    const fetchMock = mockFetch(() => jsonResponse(200, {}));
    await expect(withSessionRefresh(async () => refused(401, "TOKEN_EXPIRED"), { refresh: false })).rejects.toMatchObject({ status: 401 });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(authStore.get().token).toBe("tok");
  });

  it("leaves an error the send throws itself (no reply, a stream's error line) to the caller", async () => {
    signIn(buildUser(), "tok", "refresh-1");
    const fetchMock = mockFetch(() => jsonResponse(200, {}));
    const thrown = new ApiError(401, "STREAM_ERROR", "from a stream", true);
    await expect(withSessionRefresh(async () => Promise.reject(thrown))).rejects.toBe(thrown);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
