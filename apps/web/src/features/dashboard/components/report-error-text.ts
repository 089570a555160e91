import { ApiError } from "../../../lib/api-error";

/**
 * The text for a failed export: the server's own words for a refusal it explains (403 export
 * off, 429 too many e-mails, 400/404 a bad or unknown filter), the screen's spec text for
 * everything else (5xx, timeouts, no network), whose server text would say nothing useful.
 */
export function reportErrorText(error: unknown, fallback: string): string {
  const explained = error instanceof ApiError && error.fromServer && error.status >= 400 && error.status < 500;
  return explained && error.message ? error.message : fallback;
}
