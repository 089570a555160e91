import { LIMITS } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import type { DiagnosticTarget } from "../lib/diagnostic-targets";

export interface DiagnosticResult {
  target: DiagnosticTarget;
  /** "skipped" when the backend is not configured. */
  outcome: "ok" | "failed" | "skipped";
  status: number | null;
  ms: number | null;
  body: unknown;
  error: string | null;
}

/** One GET without credentials (other origins must not get the session) and a 5 s timeout. */
export async function probe(target: DiagnosticTarget): Promise<DiagnosticResult> {
  if (!target.url) return { target, outcome: "skipped", status: null, ms: null, body: null, error: null };
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), LIMITS.healthCheckTimeoutMs);
  try {
    const response = await fetch(target.url, { credentials: "omit", mode: "cors", signal: controller.signal });
    const text = await response.text();
    const ms = Math.round(performance.now() - started);
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: shown as text
    }
    // Stricter than the health rule (< 500): a 404 here means the endpoint is missing.
    const ok = response.ok;
    return { target, outcome: ok ? "ok" : "failed", status: response.status, ms, body, error: ok ? null : `HTTP ${response.status}` };
  } catch (error) {
    const ms = Math.round(performance.now() - started);
    const reason = controller.signal.aborted
      ? `No answer within ${LIMITS.healthCheckTimeoutMs / 1000} s`
      : `Request failed (${error instanceof Error ? error.message : "network error"}); the server may be down or refuse this origin`;
    return { target, outcome: "failed", status: null, ms, body: null, error: reason };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every probe at once; a mutation because the page runs them only when asked. */
export function useRunDiagnostics() {
  return useMutation({ mutationFn: (targets: DiagnosticTarget[]) => Promise.all(targets.map(probe)) });
}
