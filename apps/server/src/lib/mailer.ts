import type { Kysely } from "kysely";
import nodemailer from "nodemailer";
import type { Database } from "../db/schema.js";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  readonly kind: "smtp" | "outbox";
  send(message: MailMessage): Promise<void>;
}

interface Log {
  info(obj: object, msg: string): void;
}

/** SMTP when SMTP_URL is set; otherwise mail is kept in the database outbox for admins. */
export function createMailer(opts: { smtpUrl?: string; from: string; db: Kysely<Database>; log: Log }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      kind: "smtp",
      async send(m) {
        await transport.sendMail({ from: opts.from, to: m.to, subject: m.subject, text: m.text, html: m.html });
      },
    };
  }
  return {
    kind: "outbox",
    async send(m) {
      const row = await opts.db
        .insertInto("mail_outbox")
        .values({ to_address: m.to, subject: m.subject, text_body: m.text, html_body: m.html ?? null })
        .returning("id")
        .executeTakeFirstOrThrow();
      opts.log.info(
        { outboxId: row.id, to: m.to, subject: m.subject },
        "No SMTP_URL set: e-mail kept in the outbox (admins: GET /api/mail/outbox)",
      );
    },
  };
}
