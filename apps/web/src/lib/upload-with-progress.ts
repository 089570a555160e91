import { IMPORT_PROGRESS_TYPE, type ImportProgressLine, type ImportStage } from "@tally/contract";
import { ApiError, NETWORK_ERROR, apiErrorOf } from "./api-error";
import { apiUrl, withSessionRefresh } from "./api-client";

/** What a person can be shown while an upload runs: the bytes sent, then the server's stage. */
export type UploadProgress = { kind: "upload"; percent: number } | { kind: "stage"; stage: ImportStage };

export interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

interface Reply {
  status: number;
  statusText: string;
  contentType: string;
  text: string;
}

/** Turns an ordinary JSON error reply into an ApiError, as apiErrorFrom does for fetch. */
function errorFromReply(reply: Reply): ApiError {
  let body: unknown;
  try {
    body = JSON.parse(reply.text) as unknown;
  } catch {
    // not JSON: the status text stands in
  }
  return apiErrorOf(reply.status, reply.statusText, body);
}

/** Reads complete NDJSON lines as they arrive; the last, unterminated piece waits for more. */
class LineReader<T> {
  private consumed = 0;
  result: { data: T } | null = null;
  error: ApiError | null = null;

  constructor(private readonly onStage: (stage: ImportStage) => void) {}

  feed(text: string, final: boolean): void {
    const end = final ? text.length : text.lastIndexOf("\n") + 1;
    if (end <= this.consumed) return;
    const chunk = text.slice(this.consumed, end);
    this.consumed = end;
    for (const line of chunk.split("\n")) {
      if (line.trim()) this.take(line);
    }
  }

  private take(line: string): void {
    let parsed: ImportProgressLine<T>;
    try {
      parsed = JSON.parse(line) as ImportProgressLine<T>;
    } catch {
      return; // a torn or foreign line says nothing we can use
    }
    if (parsed.type === "stage") this.onStage(parsed.stage);
    else if (parsed.type === "result") this.result = { data: parsed.data };
    else if (parsed.type === "error") this.error = new ApiError(parsed.statusCode, parsed.code, parsed.error, true);
  }
}

/**
 * One XHR POST. XHR rather than fetch because only XHR reports upload progress; no timeout,
 * because a large week can take a minute and the stage lines show it is alive.
 */
function sendOnce<T>(url: string, body: FormData, token: string | null, options: UploadOptions) {
  return new Promise<{ reply: Reply; reader: LineReader<T> }>((resolve, reject) => {
    const { signal, onProgress } = options;
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const xhr = new XMLHttpRequest();
    const reader = new LineReader<T>((stage) => onProgress?.({ kind: "stage", stage }));
    const streaming = () => (xhr.getResponseHeader("Content-Type") ?? "").includes(IMPORT_PROGRESS_TYPE);
    const onAbort = () => xhr.abort();
    xhr.open("POST", url);
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", `${IMPORT_PROGRESS_TYPE}, application/json`);
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    const done = () => signal?.removeEventListener("abort", onAbort);
    xhr.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress?.({ kind: "upload", percent: Math.min(100, Math.round((event.loaded / event.total) * 100)) });
      }
    });
    xhr.upload.addEventListener("load", () => onProgress?.({ kind: "upload", percent: 100 }));
    xhr.addEventListener("progress", () => {
      if (streaming()) reader.feed(xhr.responseText, false);
    });
    xhr.addEventListener("load", () => {
      done();
      const reply = {
        status: xhr.status,
        statusText: xhr.statusText,
        contentType: xhr.getResponseHeader("Content-Type") ?? "",
        text: xhr.responseText,
      };
      if (streaming()) reader.feed(reply.text, true);
      resolve({ reply, reader });
    });
    xhr.addEventListener("error", () => {
      done();
      reject(new ApiError(0, NETWORK_ERROR, "Cannot connect to the API server"));
    });
    xhr.addEventListener("abort", () => {
      done();
      reject(signal?.reason ?? new DOMException("The upload was cancelled", "AbortError"));
    });
    signal?.addEventListener("abort", onAbort, { once: true });
    xhr.send(body);
  });
}

/**
 * POSTs a multipart form under /api asking for NDJSON progress, reports upload percent and then
 * the server's stages, and resolves with the result line's data. Throws ApiError with the
 * server's text on any refusal; a 401 refreshes the session once and sends again.
 */
export function uploadWithProgress<T>(path: string, body: FormData, options: UploadOptions = {}): Promise<T> {
  const url = apiUrl(path);
  return withSessionRefresh<T>(async (token) => {
    const { reply, reader } = await sendOnce<T>(url, body, token, options);
    if (reader.error) throw reader.error;
    if (reader.result) return { ok: true, value: reader.result.data };
    if (reply.status >= 200 && reply.status < 300) {
      // A server that ignored the Accept header answers plain JSON.
      if (reply.contentType.includes("json") && !reply.contentType.includes(IMPORT_PROGRESS_TYPE)) {
        return { ok: true, value: JSON.parse(reply.text) as T };
      }
      throw new ApiError(reply.status, "INCOMPLETE_REPLY", "The server ended the reply without a result.");
    }
    return { ok: false, error: errorFromReply(reply) };
  });
}
