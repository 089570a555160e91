import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { loadRemainingStyles } from "./app/first-screen-styles";
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

const root = createRoot(container);
// A transition renders in slices of a few milliseconds, yielding to the browser between them,
// where a plain first render is one long task (issue 29: total blocking time).
startTransition(() => {
  root.render(
    <StrictMode>
      <AppProviders>
        <ErrorBoundary>
          <RouterProvider router={router} />
        </ErrorBoundary>
      </AppProviders>
    </StrictMode>,
  );
});

// The styles of everything past the first screen; a failure shows in the console, and a page
// that needs them fetches its code from the same server anyway.
loadRemainingStyles().catch((err: unknown) => console.error(err));
