import { render } from "@testing-library/react";
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
