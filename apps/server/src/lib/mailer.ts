import nodemailer from "nodemailer";

export interface MailMessage {
  /** One address, or several separated by ", ". */
  to: string;
  cc?: string[];
  /** Where the recipient's reply goes (a report's sender), instead of the From address. */
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * The one-time links the message carries. Only the recipient may read them: SMTP delivers
   * them, the outbox keeps the message with each replaced by WITHHELD_LINK.
   */
  secrets?: string[];
  /** Files sent with the mail (a report's PDF). The outbox keeps only their names and sizes. */
  attachments?: MailAttachment[];
  /** Extra headers (a digest's List-Unsubscribe and List-Unsubscribe-Post, RFC 8058). SMTP only. */
  headers?: Record<string, string>;
}

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface Mailer {
  readonly kind: "smtp" | "outbox";
  send(message: MailMessage): Promise<void>;
}

/** A mail as the outbox keeps it: its one-time links already withheld. */
export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string | null;
}

/** Keeps a mail when there is no SMTP server and returns its id (the mail module's databaseOutbox). */
export type OutboxStore = (mail: OutboxMail) => Promise<number>;

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

// The outbox table has no place for files, copies or a reply address: it notes them in the text.
function attachmentNote({ attachments = [], cc = [], replyTo }: MailMessage): string {
  const notes = attachments.map((a) => `[attachment: ${a.filename}, ${a.content.length} bytes, not kept in the outbox]`);
  if (cc.length > 0) notes.push(`[cc: ${cc.join(", ")}]`);
  if (replyTo) notes.push(`[reply-to: ${replyTo}]`);
  return notes.map((n) => `\n\n${n}`).join("");
}

/** SMTP when SMTP_URL is set; otherwise mail goes to the outbox store, one-time links withheld. */
export function createMailer(opts: { smtpUrl?: string | undefined; from: string; outbox?: OutboxStore; log: Log }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      kind: "smtp",
      async send(m) {
        await transport.sendMail({
          from: opts.from,
          to: m.to,
          cc: m.cc?.length ? m.cc : undefined,
          replyTo: m.replyTo,
          subject: m.subject,
          text: m.text,
          html: m.html,
          attachments: m.attachments?.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
          headers: m.headers,
        });
      },
    };
  }
  const outbox = opts.outbox;
  if (!outbox) throw new Error("A mailer needs an SMTP URL or an outbox store");
  return {
    kind: "outbox",
    async send(m) {
      const outboxId = await outbox({
        to: m.to,
        subject: m.subject,
        text: withholdSecrets(m.text, m.secrets) + attachmentNote(m),
        html: m.html === undefined ? null : withholdSecrets(m.html, m.secrets),
      });
      opts.log.info(
        { outboxId, to: m.to, subject: m.subject },
        "No SMTP_URL set: e-mail kept in the outbox with its one-time links withheld",
      );
    },
  };
}
