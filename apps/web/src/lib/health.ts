import { LIMITS } from "@tally/contract";
import { useSyncExternalStore } from "react";

export const API_BASE = "/api";
export const HEALTH_CHECK_URL = `${API_BASE}/health-check`;

export interface HealthState {
  isChecking: boolean;
  isOnline: boolean;
  lastChecked: string | null;
  error: string | null;
  retryCount: number;
}

const LAST_SYNC_KEY = "lastSyncTime";

let state: HealthState = {
  isChecking: false,
  isOnline: true,
  lastChecked: null,
  error: null,
  retryCount: 0,
};
const listeners = new Set<() => void>();

function setState(patch: Partial<HealthState>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

/** API connectivity (spec section 4). The API client shortens its timeout while offline. */
export const healthStore = {
  get: (): HealthState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  setOffline(error: string): void {
    setState({ isOnline: false, error });
  },
  reset(): void {
    setState({ isChecking: false, isOnline: true, lastChecked: null, error: null, retryCount: 0 });
  },
};

export function useHealth(): HealthState {
  return useSyncExternalStore(healthStore.subscribe, healthStore.get, healthStore.get);
}

export function lastSyncTime(): string | null {
  try {
    return localStorage.getItem(LAST_SYNC_KEY);
  } catch {
    return null;
  }
}

export interface HealthCheckResult {
  ok: boolean;
  status: number | null;
  body: unknown;
  error: string | null;
}

/** Spec section 8 "Health" texts, and the words for the good case. */
export const HEALTH_MESSAGES = {
  online: "Connected to the API server",
  serverError: "API server is experiencing issues",
  unreachable: "Cannot connect to the API server",
  deviceOffline: "Your device is offline",
} as const;

/** GET /api/health-check without credentials and with a 5 s timeout; online means status < 500. */
export async function checkHealth(): Promise<HealthCheckResult> {
  setState({ isChecking: true });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), LIMITS.healthCheckTimeoutMs);
  try {
    const response = await fetch(HEALTH_CHECK_URL, { credentials: "omit", signal: controller.signal });
    const body: unknown = await response.json().catch(() => null);
    const now = new Date().toISOString();
    if (response.status < 500) {
      try {
        localStorage.setItem(LAST_SYNC_KEY, now);
      } catch {
        // storage disabled: the last sync time is only informative
      }
      setState({ isChecking: false, isOnline: true, lastChecked: now, error: null, retryCount: 0 });
      return { ok: true, status: response.status, body, error: null };
    }
    const error = HEALTH_MESSAGES.serverError;
    setState({ isChecking: false, isOnline: false, lastChecked: now, error, retryCount: state.retryCount + 1 });
    return { ok: false, status: response.status, body, error };
  } catch {
    const error = navigator.onLine === false ? HEALTH_MESSAGES.deviceOffline : HEALTH_MESSAGES.unreachable;
    setState({
      isChecking: false,
      isOnline: false,
      lastChecked: new Date().toISOString(),
      error,
      retryCount: state.retryCount + 1,
    });
    return { ok: false, status: null, body: null, error };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A request that got no answer may mean the API is down; while the app still thinks it is
 * online nothing else would look (the 15 s retry runs only while offline), so let the health
 * check decide. Called by the periodic profile check and the notification stream.
 */
export function suspectApiDown(): void {
  const { isOnline, isChecking } = state;
  if (isOnline && !isChecking) void checkHealth();
}

/**
 * Checks on start, on the browser online event and every 15 s while offline; the offline
 * event marks the API offline at once. Returns a stop function.
 */
export function startHealthMonitor(): () => void {
  let timer: ReturnType<typeof setInterval> | undefined;
  const schedule = () => {
    if (!state.isOnline && timer === undefined) {
      timer = setInterval(() => void checkHealth(), LIMITS.healthRetryWhileOfflineMs);
    } else if (state.isOnline && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  const unsubscribe = healthStore.subscribe(schedule);
  const onOnline = () => void checkHealth();
  const onOffline = () => healthStore.setOffline(HEALTH_MESSAGES.deviceOffline);
  window.addEventListener("online", onOnline);
  window.addEventListener("offline", onOffline);
  void checkHealth();
  return () => {
    unsubscribe();
    if (timer !== undefined) clearInterval(timer);
    window.removeEventListener("online", onOnline);
    window.removeEventListener("offline", onOffline);
  };
}
