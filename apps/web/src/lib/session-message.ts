import { MESSAGES } from "@tally/contract";

const KEY = "tally.sessionMessage";

/** Kept in sessionStorage so the sign-in page can explain a forced logout after a reload. */
export function storeSessionMessage(message: string): void {
  try {
    sessionStorage.setItem(KEY, message);
  } catch {
    // Storage can be disabled; the sign-in page then shows the default text.
  }
}

export function readSessionMessage(): string {
  try {
    return sessionStorage.getItem(KEY) ?? MESSAGES.sessionExpired;
  } catch {
    return MESSAGES.sessionExpired;
  }
}

export function clearSessionMessage(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // ignore: nothing to clear
  }
}
