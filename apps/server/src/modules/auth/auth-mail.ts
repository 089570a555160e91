import { LIMITS } from "@tally/contract";
import type { FastifyBaseLogger } from "fastify";
import type { ServerContext } from "../../context.js";
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

export function emailVerificationMail(appUrl: string, to: string, username: string, token: string): MailMessage {
  const link = oneTimeLink(appUrl, "/verify", token);
  return {
    to,
    secrets: [link],
    subject: "Verify your Tally e-mail address",
    text: [
      `Hello ${username},`,
      "",
      "An account has been created for you in Tally. Please confirm your e-mail address:",
      "",
      link,
      "",
      `The link expires in ${LIMITS.verifyTokenTtlHours} hours.`,
    ].join("\n"),
  };
}

const pending = new WeakMap<ServerContext, Set<Promise<void>>>();

/**
 * Runs work without making the caller wait: failures go to onError (to be logged), never to
 * the client, and settleBackgroundWork waits for the work on shutdown.
 */
export function runInBackground(ctx: ServerContext, work: () => Promise<unknown>, onError: (err: unknown) => void): void {
  const set = pending.get(ctx) ?? new Set<Promise<void>>();
  pending.set(ctx, set);
  const job: Promise<void> = Promise.resolve()
    .then(work)
    .then(() => undefined, onError)
    .catch(() => undefined)
    .finally(() => set.delete(job));
  set.add(job);
}

/**
 * Sends without making the caller wait: the reply must not reveal, by its timing, whether a
 * mail went out. Failures are logged; settleBackgroundWork waits for the rest on shutdown.
 */
export function sendInBackground(ctx: ServerContext, message: MailMessage, log: FastifyBaseLogger): void {
  runInBackground(
    ctx,
    () => ctx.mailer.send(message),
    (err) => log.error({ err, subject: message.subject }, "sending e-mail failed"),
  );
}

/** Waits for every background job, including those started by jobs that were running. */
export async function settleBackgroundWork(ctx: ServerContext): Promise<void> {
  const set = pending.get(ctx);
  if (!set) return;
  // A job may start another (the forgot-password work sends its mail in the background too).
  for (let size = set.size; size > 0; size = set.size) await Promise.allSettled(set);
}
