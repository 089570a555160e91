import { LIMITS } from "@tally/contract";
import type { MailMessage } from "../../lib/mailer.js";

/**
 * A page link with the token in the fragment: the browser never sends a fragment to the
 * server, so opening the link cannot write the token into a request log (ours or a proxy's).
 */
export function oneTimeLink(appUrl: string, page: "/set-password" | "/verify", token: string): string {
  return `${appUrl}${page}#token=${encodeURIComponent(token)}`;
}

export function passwordResetMail(appUrl: string, to: string, username: string, token: string): MailMessage {
  const link = oneTimeLink(appUrl, "/set-password", token);
  return {
    to,
    secrets: [link],
    subject: "Reset your Tally password",
    text: [
      `Hello ${username},`,
      "",
      "A password reset was requested for your Tally account. Choose a new password here:",
      "",
      link,
      "",
      `The link can be used once and expires in ${LIMITS.resetTokenTtlMinutes} minutes.`,
      "If you did not ask for this, you can ignore this e-mail.",
    ].join("\n"),
  };
}

/**
 * The new account's mail (the only verification mail Tally sends): the username to sign in
 * with, how the password is set (the administrator chose one and hands it over; the owner can
 * choose their own through "Forgot your password?"), and the link that confirms the address.
 */
export function emailVerificationMail(appUrl: string, to: string, username: string, token: string): MailMessage {
  const link = oneTimeLink(appUrl, "/verify", token);
  return {
    to,
    secrets: [link],
    subject: "Your Tally account",
    text: [
      `Hello ${username},`,
      "",
      "An account has been created for you in Tally.",
      "",
      `Your username: ${username}`,
      `You can also sign in with this e-mail address (${to}).`,
      "",
      "Your password: the person who created your account has set one and will give it to you.",
      `To choose your own instead, open ${appUrl}/login, choose "Forgot your password?" and enter`,
      "this e-mail address; a link to set your password will arrive here.",
      "",
      "Please confirm your e-mail address:",
      "",
      link,
      "",
      `The link expires in ${LIMITS.verifyTokenTtlHours} hours.`,
    ].join("\n"),
  };
}
