import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { RouterProvider, createMemoryRouter, type RouteObject } from "react-router";
import { AppProviders } from "../app/providers";
import { routes as appRoutes } from "../app/routes";
import { createQueryClient } from "../lib/query-client";

/** Renders the app (or the given routes) at `path` with a fresh query cache. */
export function renderApp(path: string, routes: RouteObject[] = appRoutes) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const utils = render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, ...utils };
}

/** Renders one component inside the app's providers with a fresh query cache (no router). */
export function renderWithProviders(ui: ReactElement) {
  return render(<AppProviders queryClient={createQueryClient()}>{ui}</AppProviders>);
}
