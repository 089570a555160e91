import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { RouteObject } from "react-router";
import { renderApp, renderWithProviders } from "../testing/render-app";
import { ErrorBoundary } from "./error-boundary";
import { RouteErrorView } from "./route-error-view";

function Broken(): never {
  throw new Error("kaput");
}

describe("404 page", () => {
  it("shows 'Page not found' with a Go Back button that leaves the page", async () => {
    const { router } = renderApp("/no/such/page");
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Go Back" }));
    await vi.waitFor(() => expect(router.state.location.pathname).not.toBe("/no/such/page"));
  });
});

describe("error fallback", () => {
  it("replaces a crashing tree with the spec texts and a Refresh Page button", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    renderWithProviders(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole("heading", { name: "Oops! Something went wrong" })).toBeTruthy();
    expect(screen.getByText("Please try refreshing the page.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Refresh Page" })).toBeTruthy();
  });

  it("is also the router's error view", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const routes: RouteObject[] = [{ path: "/", element: <Broken />, errorElement: <RouteErrorView /> }];
    renderApp("/", routes);
    expect(await screen.findByRole("heading", { name: "Oops! Something went wrong" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Refresh Page" })).toBeTruthy();
  });

  it("renders children when nothing fails", () => {
    renderWithProviders(
      <ErrorBoundary>
        <p>all good</p>
      </ErrorBoundary>,
    );
    expect(screen.getByText("all good")).toBeTruthy();
    expect(screen.queryByText("Oops! Something went wrong")).toBeNull();
  });
});
