import type { FlagFileField, ProcessFlagsResponse } from "@tally/contract";
import { ApiError, NETWORK_ERROR, apiErrorOf } from "../../../lib/api-error";
import { apiUrl, withSessionRefresh } from "../../../lib/api-client";

export type ProcessStage = "uploading" | "processing";

export interface ProcessFlagsInput {
  cohortId: number;
  currentWeek: number;
  files: Record<FlagFileField, File>;
}

export interface ProcessFlagsOptions {
  signal?: AbortSignal;
  /** "uploading" while the files are sent, "processing" once the server has them all. */
  onStage?: (stage: ProcessStage) => void;
}

/** A 400 naming what is wrong in the files: the page shows `validationErrors` joined. */
export class FlagValidationError extends ApiError {
  readonly validationErrors: string[];
  constructor(status: number, code: string, message: string, validationErrors: string[]) {
    super(status, code, message, true);
    this.validationErrors = validationErrors;
  }
}

interface Reply {
  status: number;
  statusText: string;
  body: unknown;
}

function parse(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return text;
  }
}

/** The refusal as an error; a 400 with validation errors keeps them (apiRequest would drop them). */
export function errorFromReply({ status, statusText, body }: Reply): ApiError {
  const error = apiErrorOf(status, statusText, body);
  const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const errors = Array.isArray(record.validationErrors) ? record.validationErrors.map(String) : [];
  return errors.length > 0 ? new FlagValidationError(status, error.code, error.fromServer ? error.message : "", errors) : error;
}

/** One multipart POST through XHR: only XHR tells when the upload has finished. No timeout. */
function sendOnce(form: FormData, token: string | null, { signal, onStage }: ProcessFlagsOptions) {
  return new Promise<Reply>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener("abort", onAbort);
    xhr.open("POST", apiUrl("/flag-upload/process-flags"));
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.upload.addEventListener("load", () => onStage?.("processing"));
    xhr.addEventListener("load", () => {
      done();
      resolve({ status: xhr.status, statusText: xhr.statusText, body: parse(xhr.responseText) });
    });
    xhr.addEventListener("error", () => {
      done();
      reject(new ApiError(0, NETWORK_ERROR, "Cannot connect to the API server"));
    });
    xhr.addEventListener("abort", () => {
      done();
      reject(signal?.reason ?? new DOMException("Aborted", "AbortError"));
    });
    signal?.addEventListener("abort", onAbort, { once: true });
    onStage?.("uploading");
    xhr.send(form);
  });
}

/**
 * POST /flag-upload/process-flags: the three reports for a cohort and week, answered with the
 * calculated flags to verify. Nothing is written. A 401 refreshes the session once, as apiRequest does.
 */
export function processFlags(input: ProcessFlagsInput, options: ProcessFlagsOptions = {}): Promise<ProcessFlagsResponse> {
  const form = new FormData();
  form.append("cohortId", String(input.cohortId));
  form.append("currentWeek", String(input.currentWeek));
  for (const [field, file] of Object.entries(input.files)) form.append(field, file, file.name);
  return withSessionRefresh(async (token) => {
    const reply = await sendOnce(form, token, options);
    if (reply.status >= 200 && reply.status < 300) return { ok: true, value: reply.body as ProcessFlagsResponse };
    return { ok: false, error: errorFromReply(reply) };
  });
}
