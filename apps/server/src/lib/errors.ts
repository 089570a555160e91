import { type ErrorCode, MESSAGES } from "@tally/contract";

/** An error meant for the client: a status, a stable code and a text safe to show. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Array<{ path: string; message: string }>,
    /** Seconds until a retry may succeed: sent as Retry-After (429, 503). */
    readonly retryAfterSeconds?: number,
    /** More fields of the reply body, beside error and code (what the client needs to decide). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const badRequest = (message: string, details?: AppError["details"]) =>
  new AppError(400, "VALIDATION_ERROR", message, details);
/** A password from the common-password list, refused wherever a password is set. */
export const commonPassword = () =>
  badRequest(MESSAGES.passwordTooCommon, [{ path: "body.password", message: MESSAGES.passwordTooCommon }]);
export const unauthenticated = (message: string = MESSAGES.unauthenticated, code: ErrorCode = "UNAUTHENTICATED") =>
  new AppError(401, code, message);
export const forbidden = (message: string = MESSAGES.forbidden) => new AppError(403, "FORBIDDEN", message);
export const notFound = (message: string = MESSAGES.notFound) => new AppError(404, "NOT_FOUND", message);
export const conflict = (message: string) => new AppError(409, "CONFLICT", message);
/** A body of a type the route does not read (code as Fastify's own 415s: the request is what is wrong). */
export const unsupportedMediaType = (message: string) => new AppError(415, "VALIDATION_ERROR", message);
/** A 409 with its own code and what the client needs to resolve it (its route's 409 schema names the fields). */
export const conflictWith = (code: ErrorCode, message: string, extra: Record<string, unknown>) =>
  new AppError(409, code, message, undefined, undefined, extra);
/** Every 429 says when to try again (Retry-After), so clients and proxies need not guess. */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, "RATE_LIMITED", message, undefined, Math.max(1, Math.ceil(retryAfterSeconds)));
