import { LIMITS, MESSAGES, type RefreshResponse } from "@tally/contract";
import { ApiError, NETWORK_ERROR, TIMEOUT, apiErrorFrom, readBody } from "./api-error";
import { authStore } from "./auth-store";
import { API_BASE, healthStore } from "./health";
import { hardNavigation } from "./hard-navigation";
import { storeSessionMessage } from "./session-message";

export { ApiError } from "./api-error";

export const SESSION_EXPIRED_PATH = "/login?session=expired";
/** Where a person sets up two-step sign-in; admins who must (MFA_ENROLMENT_REQUIRED) are sent there. */
export const TWO_STEP_PATH = "/account/two-step";

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** false for public calls (login, password reset): no bearer header and no refresh on 401. */
  auth?: boolean;
  /** false when a 401 should simply be thrown (logout); defaults to `auth`. */
  refreshOnUnauthorized?: boolean;
  timeoutMs?: number;
}

export function apiUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== null && value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ""}`;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

function currentTimeout(): number {
  return healthStore.get().isOnline ? LIMITS.requestTimeoutMs : LIMITS.offlineRequestTimeoutMs;
}

async function fetchWithTimeout(url: string, init: RequestInit, timeoutMs: number, signal?: AbortSignal) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onCallerAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  signal?.addEventListener("abort", onCallerAbort, { once: true });
  try {
    return await fetch(url, { ...init, signal: controller.signal });
  } catch (error) {
    if (timedOut) throw new ApiError(0, TIMEOUT, "Cannot connect to the API server");
    if (signal?.aborted) throw error;
    throw new ApiError(0, NETWORK_ERROR, "Cannot connect to the API server");
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onCallerAbort);
  }
}

/**
 * Retries only when no reply came at all (spec: network failure), waiting 1 s, 2 s, 4 s.
 * HTTP errors and timeouts are not retried: the server has answered or is too slow already.
 */
async function fetchWithRetry(url: string, init: RequestInit, timeoutMs: number, signal?: AbortSignal) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchWithTimeout(url, init, timeoutMs, signal);
    } catch (error) {
      const retryable = error instanceof ApiError && error.code === NETWORK_ERROR;
      if (!retryable || attempt >= LIMITS.maxRetries) throw error;
      await sleep(LIMITS.retryBaseDelayMs * 2 ** attempt, signal);
    }
  }
}

/** Clears the session, keeps the reason for the sign-in page and leaves the app. Idempotent. */
export function endSession(message: string): void {
  const { token, refreshToken, user } = authStore.get();
  if (!token && !refreshToken && !user) return;
  authStore.clear();
  storeSessionMessage(message);
  hardNavigation.assign(SESSION_EXPIRED_PATH);
}

/** An admin who must set up two-step sign-in first is taken to it from whatever page asked. */
function walkToEnrolment(): void {
  if (typeof window !== "undefined" && window.location.pathname === TWO_STEP_PATH) return;
  hardNavigation.assign(TWO_STEP_PATH);
}

let refreshInFlight: Promise<void> | null = null;

async function doRefresh(staleToken: string | null): Promise<void> {
  // Another tab may have refreshed while this one waited: its new pair is in storage.
  authStore.reload();
  const { token, refreshToken } = authStore.get();
  if (token && token !== staleToken) return;
  if (!refreshToken) {
    endSession(MESSAGES.sessionExpired);
    throw new ApiError(401, "UNAUTHENTICATED", MESSAGES.sessionExpired);
  }
  const response = await fetchWithRetry(
    apiUrl("/auth/refresh"),
    {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      credentials: "include",
      body: JSON.stringify({ refreshToken }),
    },
    currentTimeout(),
  );
  const body = await readBody(response);
  if (!response.ok) {
    const error = apiErrorFrom(response, body);
    // A 5xx says nothing about the session; only a refusal ends it.
    if (response.status < 500) {
      endSession(
        error.code === "SESSION_VERSION_MISMATCH" ? MESSAGES.sessionVersionMismatch : MESSAGES.sessionExpired,
      );
    }
    throw error;
  }
  const tokens = body as RefreshResponse;
  authStore.set({ token: tokens.token, refreshToken: tokens.refreshToken ?? refreshToken });
}

/**
 * Tabs of one browser share the stored tokens, so they take turns: a rotated refresh token
 * presented again by a second tab would look like a stolen copy. Where Web Locks are missing
 * the server's short grace window for a just-rotated token covers the race.
 */
function oneTabAtATime(task: () => Promise<void>): Promise<void> {
  const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
  return locks ? locks.request("tally-token-refresh", task) : task();
}

/**
 * Exchanges the refresh token once; concurrent callers share the same promise. `staleToken`
 * is the access token that was refused (default: the current one): if it has already been
 * replaced, here or in another tab, nothing is done.
 */
export function refreshSession(staleToken: string | null = authStore.get().token): Promise<void> {
  const { token } = authStore.get();
  if (token && token !== staleToken) return Promise.resolve();
  refreshInFlight ??= oneTabAtATime(() => doRefresh(staleToken)).finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

/** One request's outcome: the value, or the server's refusal (an HTTP error status) as an ApiError. */
export type Attempt<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/**
 * The refresh-once-on-401 rule of every authenticated call (JSON, uploads, file downloads):
 * `send` makes the request with the access token it is given. When the server refuses a sent
 * token with 401, the session is refreshed once (shared with every other caller and tab) and
 * the request sent again with the new token; a second 401 ends the session with the expiry
 * notice, SESSION_VERSION_MISMATCH ends it at once. Errors `send` throws itself pass through.
 * `auth: false` sends no token (public calls); `refresh: false` throws a 401 as it is (logout).
 */
export async function withSessionRefresh<T>(
  send: (token: string | null) => Promise<Attempt<T>>,
  { auth = true, refresh = auth }: { auth?: boolean; refresh?: boolean } = {},
): Promise<T> {
  for (let refreshed = false; ; refreshed = true) {
    const token = auth ? authStore.get().token : null;
    const attempt = await send(token);
    if (attempt.ok) return attempt.value;
    const { error } = attempt;
    if (error.code === "MFA_ENROLMENT_REQUIRED") walkToEnrolment();
    if (error.status !== 401 || !token || !refresh) throw error;
    if (error.code === "SESSION_VERSION_MISMATCH") {
      endSession(MESSAGES.sessionVersionMismatch);
      throw error;
    }
    if (refreshed) {
      endSession(MESSAGES.sessionExpired);
      throw error;
    }
    await refreshSession(token);
  }
}

/** Calls the API under /api and returns the parsed reply; throws ApiError on any failure. */
export function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = "GET", body, query, signal, auth = true } = options;
  const url = apiUrl(path, query);
  return withSessionRefresh<T>(
    async (token) => {
      const headers: Record<string, string> = { Accept: "application/json" };
      if (token) headers.Authorization = `Bearer ${token}`;
      let payload: BodyInit | undefined;
      if (body instanceof FormData) payload = body;
      else if (body !== undefined) {
        headers["Content-Type"] = "application/json";
        payload = JSON.stringify(body);
      }
      const init: RequestInit = { method, headers, body: payload, credentials: "include" };
      const response = await fetchWithRetry(url, init, options.timeoutMs ?? currentTimeout(), signal);
      const parsed = await readBody(response);
      return response.ok ? { ok: true, value: parsed as T } : { ok: false, error: apiErrorFrom(response, parsed) };
    },
    { auth, refresh: options.refreshOnUnauthorized ?? auth },
  );
}
