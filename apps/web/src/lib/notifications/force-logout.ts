import { MESSAGES, type Notification } from "@tally/contract";
import { endSession } from "../api-client";

/**
 * The expired notice the sign-in page shows (spec sections 4 and 8). An admin's change to the
 * account reads like a SESSION_VERSION_MISMATCH reply, which it is on the server too; revoked
 * sessions read as a plain expiry.
 */
export function forceLogoutMessage(reason: Notification["reason"]): string {
  switch (reason) {
    case "ACCOUNT_DEACTIVATED":
    case "ACCOUNT_CHANGED":
    case "PASSWORD_CHANGED":
      return MESSAGES.sessionVersionMismatch;
    default:
      return MESSAGES.sessionExpired;
  }
}

/**
 * FORCE_LOGOUT, and a stream closed because its sign-in ended (signed out elsewhere), end the
 * session the same way a refused token does; the rest needs no action here.
 */
export function handleNotification(notification: Notification): void {
  if (notification.type === "FORCE_LOGOUT") endSession(forceLogoutMessage(notification.reason));
  else if (notification.type === "STREAM_CLOSED" && notification.reason === "SIGNED_OUT") endSession(MESSAGES.sessionExpired);
}
