import type { FastifyBaseLogger } from "fastify";
import type { ServerContext } from "../../context.js";
import type { MailMessage } from "../../lib/mailer.js";

// Work that must not hold up the reply: mail whose timing would tell something (whether an
// account exists) and the work that leads to it. The mail module's routes wait for it on close.

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
