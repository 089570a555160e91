import type { SessionUser } from "@tally/contract";
import { useSyncExternalStore } from "react";

export interface AuthSession {
  token: string | null;
  refreshToken: string | null;
  user: SessionUser | null;
}

const KEYS = { token: "tally.token", refreshToken: "tally.refreshToken", user: "tally.user" } as const;
const EMPTY: AuthSession = { token: null, refreshToken: null, user: null };

function readUser(raw: string | null): SessionUser | null {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as SessionUser;
  } catch {
    return null;
  }
}

function load(): AuthSession {
  if (typeof localStorage === "undefined") return EMPTY;
  return {
    token: localStorage.getItem(KEYS.token),
    refreshToken: localStorage.getItem(KEYS.refreshToken),
    user: readUser(localStorage.getItem(KEYS.user)),
  };
}

function persist(key: string, value: string | null): void {
  if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, value);
}

let current: AuthSession = load();
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** Token, refresh token and user, kept in localStorage so a reload stays signed in. */
export const authStore = {
  get(): AuthSession {
    return current;
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  set(patch: Partial<AuthSession>): void {
    current = { ...current, ...patch };
    if ("token" in patch) persist(KEYS.token, current.token);
    if ("refreshToken" in patch) persist(KEYS.refreshToken, current.refreshToken);
    if ("user" in patch) persist(KEYS.user, current.user ? JSON.stringify(current.user) : null);
    emit();
  },
  clear(): void {
    authStore.set(EMPTY);
  },
  /** Re-read storage, e.g. after another tab signed in or out. */
  reload(): void {
    current = load();
    emit();
  },
};

if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key === null || Object.values(KEYS).includes(event.key as never)) authStore.reload();
  });
}

export function useAuth(): AuthSession {
  return useSyncExternalStore(authStore.subscribe, authStore.get, authStore.get);
}

export function useCurrentUser(): SessionUser | null {
  return useAuth().user;
}
