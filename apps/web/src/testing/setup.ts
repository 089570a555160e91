import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import { authStore } from "../lib/auth-store";
import { FakeEventSource } from "./fake-event-source";
import { healthStore } from "../lib/health";
import { queryClient } from "../lib/query-client";

// A page whose route chunk and first query load under a busy machine can take seconds to
// appear (the Admin Settings page once took over 5 s while CI ran the server suites beside
// it); findBy* waits up to 10 s (what it waits for is unchanged).
configure({ asyncUtilTimeout: 10_000 });

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
