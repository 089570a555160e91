import type { Kysely } from "kysely";
import nodemailer from "nodemailer";
import type { Database } from "../db/schema.js";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * The one-time links the message carries. Only the recipient may read them: SMTP delivers
   * them, the outbox keeps the message with each replaced by WITHHELD_LINK.
   */
  secrets?: string[];
}

export interface Mailer {
  readonly kind: "smtp" | "outbox";
  send(message: MailMessage): Promise<void>;
}

interface Log {
  info(obj: object, msg: string): void;
}

/** What the outbox shows where a mail carried a one-time link. */
export const WITHHELD_LINK = "[one-time link withheld: it is only delivered by e-mail]";

/**
 * Replaces every secret in `text` by the marker, and, should a caller forget to name one,
 * anything shaped like a one-time link (`…/set-password?token=…`, `…#token=…`).
 */
export function withholdSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  for (const secret of [...secrets].filter(Boolean).sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join(WITHHELD_LINK);
  }
  return out.replace(ONE_TIME_LINK, WITHHELD_LINK);
}

// A link holding ?token=, &token= or #token=, up to the end of its base64url (or percent-encoded) token.
const ONE_TIME_LINK = /[^\s"'<>]*[?&#]token=[\w%-]*/g;

/** SMTP when SMTP_URL is set; otherwise mail is kept in the database outbox, one-time links withheld. */
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
        .values({
          to_address: m.to,
          subject: m.subject,
          text_body: withholdSecrets(m.text, m.secrets),
          html_body: m.html === undefined ? null : withholdSecrets(m.html, m.secrets),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      opts.log.info(
        { outboxId: row.id, to: m.to, subject: m.subject },
        "No SMTP_URL set: e-mail kept in the outbox with its one-time links withheld",
      );
    },
  };
}
