import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { AppProviders } from "./app/providers";
import { router } from "./app/router";
import { ErrorBoundary } from "./components/error-boundary";
import { getPublicConfig } from "./features/connection/api/get-public-config";
import { startHealthMonitor } from "./lib/health";

startHealthMonitor();
// Fetched while the server answers, so the offline page can show the support address later.
getPublicConfig().catch(() => undefined);

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <ErrorBoundary>
        <RouterProvider router={router} />
      </ErrorBoundary>
    </AppProviders>
  </StrictMode>,
);
