import Fastify, { type FastifyBaseLogger } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import type { ServerContext } from "../../context.js";
import type { Mailer, MailMessage } from "../../lib/mailer.js";
import { authPlugin } from "../../plugins/auth.js";
import { runInBackground, sendInBackground, settleBackgroundWork } from "./background-mail.js";
import { mailRoutes } from "./mail.routes.js";

/** A mailer whose sends finish only when let go (or fail, when told to). */
function heldMailer() {
  const sent: string[] = [];
  const waiting: Array<() => void> = [];
  const mailer: Mailer = {
    kind: "smtp",
    send: (message) =>
      new Promise<void>((resolve, reject) => {
        waiting.push(() => {
          if (message.subject === "refused") reject(new Error("mail server refused the message"));
          else {
            sent.push(message.subject);
            resolve();
          }
        });
      }),
  };
  const letGo = () => {
    for (const release of waiting.splice(0)) release();
  };
  return { mailer, sent, letGo, waitingCount: () => waiting.length };
}

/** A logger that keeps its error lines. */
function errorLog() {
  const errors: Array<{ fields: unknown; message: unknown }> = [];
  const log = { error: (fields: unknown, message: unknown) => errors.push({ fields, message }) } as unknown as FastifyBaseLogger;
  return { log, errors };
}

const mail = (subject: string): MailMessage => ({ to: "someone@example.test", subject, text: "Hello" });
/** Lets the jobs already queued take their next step. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("mail sent in the background (after the reply)", () => {
  it("returns before the mail is sent; settleBackgroundWork waits for it, and for mail that background work sends in turn", async () => {
    const { mailer, sent, letGo, waitingCount } = heldMailer();
    const ctx = { mailer } as ServerContext;
    const { log } = errorLog();

    sendInBackground(ctx, mail("first"), log);
    runInBackground(
      ctx,
      async () => {
        await mailer.send(mail("the job's own"));
        sendInBackground(ctx, mail("started by the job"), log);
      },
      () => {},
    );
    expect(sent).toEqual([]);

    let settled = false;
    const settling = settleBackgroundWork(ctx).then(() => {
      settled = true;
    });
    while (waitingCount() < 2) await turn();
    letGo();
    // The first mail and the job are done; the mail the job started is not, so settling goes on.
    while (waitingCount() < 1) await turn();
    await turn();
    expect(sent.sort()).toEqual(["first", "the job's own"]);
    expect(settled).toBe(false);
    letGo();
    await settling;
    expect(sent).toContain("started by the job");
  });

  it("logs a failed send with its subject and never hands the error to the caller", async () => {
    const { mailer, letGo, waitingCount } = heldMailer();
    const ctx = { mailer } as ServerContext;
    const { log, errors } = errorLog();
    expect(() => sendInBackground(ctx, mail("refused"), log)).not.toThrow();
    while (waitingCount() < 1) await turn();
    letGo();
    await settleBackgroundWork(ctx);
    expect(errors).toEqual([{ fields: expect.objectContaining({ subject: "refused" }), message: "sending e-mail failed" }]);
  });

  it("closing the app waits for mail still being sent in the background (the mail module's routes see to it)", async () => {
    const { mailer, sent, letGo, waitingCount } = heldMailer();
    const ctx = { mailer } as ServerContext;
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(authPlugin, { ctx });
    await app.register(mailRoutes, { ctx });
    await app.ready();
    sendInBackground(ctx, mail("sent while closing"), errorLog().log);
    while (waitingCount() < 1) await turn();

    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    await turn();
    expect(closed).toBe(false);
    letGo();
    await closing;
    expect(sent).toEqual(["sent while closing"]);
  });
});
