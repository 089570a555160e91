/** Every failed call is thrown as an ApiError; status 0 means no reply (network or timeout). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** True when `message` is the server's own `error` text, fit to show as is. */
  readonly fromServer: boolean;
  /** The reply's body as read, for the few errors that carry more than a text (409 STUDENTS_EDITED). */
  readonly body: unknown;

  constructor(status: number, code: string, message: string, fromServer = false, body: unknown = undefined) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.fromServer = fromServer;
    this.body = body;
  }
}

export const NETWORK_ERROR = "NETWORK_ERROR";
export const TIMEOUT = "TIMEOUT";

/** The server's error text when there is one, else the screen's own fallback text. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.fromServer && error.message ? error.message : fallback;
}

export async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("json")) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** A refusal as an ApiError: the server's `error` text and `code` when the body has them, else the status. */
export function apiErrorOf(status: number, statusText: string, body: unknown): ApiError {
  const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const code = typeof record.code === "string" ? record.code : `HTTP_${status}`;
  if (typeof record.error === "string" && record.error) {
    return new ApiError(status, code, record.error, true, body);
  }
  return new ApiError(status, code, statusText || `Request failed with status ${status}`, false);
}

export function apiErrorFrom(response: Response, body: unknown): ApiError {
  return apiErrorOf(response.status, response.statusText, body);
}
