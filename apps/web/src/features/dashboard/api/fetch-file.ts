import { ApiError, apiUrl, withSessionRefresh } from "../../../lib/api-client";
import { NETWORK_ERROR, TIMEOUT, apiErrorFrom, readBody } from "../../../lib/api-error";

type QueryValue = string | number | boolean | null | undefined;

export interface FetchedFile {
  blob: Blob;
  /** The server's Content-Disposition name, else the fallback. */
  fileName: string;
}

/** The file name of a Content-Disposition header (filename* first, as RFC 6266 prefers). */
export function fileNameFrom(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape: fall through to the plain name.
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/.exec(disposition);
  const name = (plain?.[1] ?? plain?.[2] ?? "").trim();
  // Only the last path segment: a name is never a place to write to.
  const safe = name.split(/[\\/]/).pop() ?? "";
  return safe || fallback;
}

/**
 * GETs a file (PDF, CSV) with the session's bearer token and reads it whole. apiRequest reads
 * replies as text, which would corrupt a PDF, so this is its binary twin: a 401 refreshes the
 * session once and retries; errors come back as ApiError with the server's text. `timeoutMs`
 * covers the reply and reading its body (a PDF is slow to arrive, not slow to start).
 */
export async function fetchFile(
  path: string,
  query: Record<string, QueryValue>,
  options: { fallbackName: string; timeoutMs: number; signal?: AbortSignal },
): Promise<FetchedFile> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const onCallerAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) controller.abort(options.signal.reason);
  options.signal?.addEventListener("abort", onCallerAbort, { once: true });
  try {
    return await withSessionRefresh<FetchedFile>(async (token) => {
      const headers: Record<string, string> = {};
      if (token) headers.Authorization = `Bearer ${token}`;
      const response = await fetch(apiUrl(path, query), { headers, credentials: "include", signal: controller.signal });
      if (!response.ok) return { ok: false, error: apiErrorFrom(response, await readBody(response)) };
      const blob = await response.blob();
      return { ok: true, value: { blob, fileName: fileNameFrom(response.headers.get("content-disposition"), options.fallbackName) } };
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (timedOut) throw new ApiError(0, TIMEOUT, "The request took too long");
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, NETWORK_ERROR, "Cannot connect to the API server");
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onCallerAbort);
  }
}

/** Hands a fetched file to the browser as a download under its own name. */
export function saveFile({ blob, fileName }: FetchedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
