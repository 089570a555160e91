import { cleanup } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import { authStore } from "../lib/auth-store";
import { FakeEventSource } from "./fake-event-source";
import { healthStore } from "../lib/health";
import { queryClient } from "../lib/query-client";

// Signed-in renders open the notification stream; happy-dom has no EventSource of its own.
(globalThis as { EventSource?: unknown }).EventSource = FakeEventSource;

afterEach(() => {
  cleanup();
  FakeEventSource.instances = [];
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
  authStore.reload();
  healthStore.reset();
  queryClient.clear();
});
