import { fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { renderApp } from "../../../testing/render-app";

afterEach(() => {
  vi.unstubAllEnvs();
});

const row = (id: string) => screen.getByTestId(`diagnostic-${id}`);

describe("API Debug page (/debug)", () => {
  it("tests the configured backend and its cross-origin endpoint, and skips unset backends with a note", async () => {
    vi.stubEnv("VITE_DEV_API_URL", "");
    vi.stubEnv("VITE_PROD_API_URL", "");
    const fetchMock = mockFetch((url) =>
      url === "/api/debug/cors"
        ? jsonResponse(200, { origin: null, allowed: true, method: "GET", time: "2026-11-25T10:00:00.000Z" })
        : jsonResponse(200, { status: "ok", database: "embedded", time: "2026-11-25T10:00:00.000Z" }),
    );
    renderApp("/debug");
    expect(await screen.findByRole("heading", { level: 1, name: "API Debug" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Go Back" })).toBeTruthy();
    expect(within(row("dev-health")).getByText(/Not configured — skipped \(set VITE_DEV_API_URL/)).toBeTruthy();
    expect(within(row("prod-health")).getByText(/Not configured — skipped \(set VITE_PROD_API_URL/)).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Run API Diagnostics" }));
    await within(row("configured-health")).findByText("OK");
    expect(within(row("configured-health")).getByText("200")).toBeTruthy();
    expect(within(row("configured-health")).getByText(/^\d+ ms$/)).toBeTruthy();
    await within(row("configured-cors")).findByText("OK");
    expect(within(row("dev-health")).getByText("Skipped")).toBeTruthy();
    expect(within(row("dev-cors")).getByText("Skipped")).toBeTruthy();
    expect(within(row("prod-health")).getByText("Skipped")).toBeTruthy();
    expect(screen.getByText(/2 passed · 0 failed · 3 skipped/)).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => url).sort()).toEqual(["/api/debug/cors", "/api/health-check"]);
    for (const [, init] of fetchMock.mock.calls) expect(init?.credentials).toBe("omit");
  });

  it("calls the development and production backends when they are configured, and shows failures", async () => {
    vi.stubEnv("VITE_DEV_API_URL", "https://dev.example.org/api/");
    vi.stubEnv("VITE_PROD_API_URL", "https://prod.example.org/api");
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.startsWith("https://prod")) throw new TypeError("Failed to fetch");
      if (url.startsWith("https://dev") && url.endsWith("/health-check")) return jsonResponse(503, { error: "down" });
      return jsonResponse(200, { status: "ok" });
    });
    vi.stubGlobal("fetch", fetchMock);
    renderApp("/debug");
    fireEvent.click(await screen.findByRole("button", { name: "Run API Diagnostics" }));
    await within(row("prod-health")).findByText("Failed");
    expect(within(row("prod-health")).getByText(/Request failed \(Failed to fetch\)/)).toBeTruthy();
    expect(within(row("dev-health")).getByText("503")).toBeTruthy();
    expect(within(row("dev-health")).getByText("Failed")).toBeTruthy();
    expect(within(row("dev-cors")).getByText("OK")).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => String(url)).sort()).toEqual([
      "/api/debug/cors",
      "/api/health-check",
      "https://dev.example.org/api/debug/cors",
      "https://dev.example.org/api/health-check",
      "https://prod.example.org/api/health-check",
    ]);
  });
});
