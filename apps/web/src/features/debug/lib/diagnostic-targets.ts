import { API_BASE } from "../../../lib/health";

/** One request the debug page makes; `url` is null when its backend is not configured. */
export interface DiagnosticTarget {
  id: string;
  label: string;
  url: string | null;
  /** Shown instead of a result when `url` is null. */
  skippedNote?: string;
}

export interface BackendUrls {
  dev: string | null;
  prod: string | null;
}

function cleanBase(value: unknown): string | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  return value.trim().replace(/\/+$/, "");
}

/**
 * The other backends are fixed at build time (VITE_DEV_API_URL, VITE_PROD_API_URL, each the
 * API base such as https://dev.example.org/api); read on each call so tests can stub them.
 */
export function backendUrlsFromEnv(): BackendUrls {
  return { dev: cleanBase(import.meta.env.VITE_DEV_API_URL), prod: cleanBase(import.meta.env.VITE_PROD_API_URL) };
}

function skipped(variable: string): string {
  return `Not configured — skipped (set ${variable} when building the app)`;
}

/** Spec section 7: this app's backend and its CORS probe, the development backend's two, the production health check. */
export function diagnosticTargets(urls: BackendUrls = backendUrlsFromEnv()): DiagnosticTarget[] {
  return [
    { id: "configured-health", label: "Configured backend: health check", url: `${API_BASE}/health-check` },
    { id: "configured-cors", label: "Configured backend: cross-origin check", url: `${API_BASE}/debug/cors` },
    {
      id: "dev-health",
      label: "Development backend: health check",
      url: urls.dev && `${urls.dev}/health-check`,
      skippedNote: skipped("VITE_DEV_API_URL"),
    },
    {
      id: "dev-cors",
      label: "Development backend: cross-origin check",
      url: urls.dev && `${urls.dev}/debug/cors`,
      skippedNote: skipped("VITE_DEV_API_URL"),
    },
    {
      id: "prod-health",
      label: "Production backend: health check",
      url: urls.prod && `${urls.prod}/health-check`,
      skippedNote: skipped("VITE_PROD_API_URL"),
    },
  ];
}
