import { cleanup } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import { authStore } from "../lib/auth-store";
import { healthStore } from "../lib/health";
import { queryClient } from "../lib/query-client";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
  authStore.reload();
  healthStore.reset();
  queryClient.clear();
});
