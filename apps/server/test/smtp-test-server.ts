import type { AddressInfo } from "node:net";
import type { Kysely } from "kysely";
import { SMTPServer } from "smtp-server";
import type { Database } from "../src/db/schema.js";
import { createMailer, type Mailer } from "../src/lib/mailer.js";

export interface ReceivedMail {
  /** RCPT TO addresses from the SMTP envelope. */
  to: string[];
  subject: string;
  /** The text/plain body, transfer-decoded. */
  text: string;
  raw: string;
}

export interface SmtpTestServer {
  port: number;
  smtpUrl: string;
  messages: ReceivedMail[];
  /** A mailer that really speaks SMTP to this server (for createTestApp({ mailer })). */
  mailer: Mailer;
  /** Resolves with the first message (already received or still to come) matching `match`. */
  waitForMessage(match?: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 (random port) that keeps what it receives. */
export async function startSmtpTestServer(): Promise<SmtpTestServer> {
  const messages: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        messages.push({ ...parseMessage(raw), to: session.envelope.rcptTo.map((r) => r.address), raw });
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  const smtpUrl = `smtp://127.0.0.1:${port}`;
  // In SMTP mode the mailer never touches the database.
  const mailer = createMailer({
    smtpUrl,
    from: "Tally <no-reply@tally.test>",
    db: undefined as unknown as Kysely<Database>,
    log: { info: () => {} },
  });

  async function waitForMessage(match: (m: ReceivedMail) => boolean = () => true, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No matching e-mail within ${timeoutMs} ms (got ${messages.length})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  return {
    port,
    smtpUrl,
    messages,
    mailer,
    waitForMessage,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function splitHeaders(part: string): { headers: Map<string, string>; body: string } {
  const at = part.search(/\r?\n\r?\n/);
  const head = at === -1 ? part : part.slice(0, at);
  const body = at === -1 ? "" : part.slice(at).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  // Folded header lines continue with whitespace.
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? "").toLowerCase()) {
    case "quoted-printable":
      return Buffer.from(
        body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        "latin1",
      ).toString("utf8");
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    default:
      return body;
  }
}

/** Just enough MIME for our own mails: a text/plain body, possibly inside multipart/alternative. */
function parseMessage(raw: string): { subject: string; text: string } {
  const { headers, body } = splitHeaders(raw);
  const subject = headers.get("subject") ?? "";
  const type = headers.get("content-type") ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith("multipart/") && boundary) {
    for (const part of body.split(`--${boundary}`)) {
      const p = splitHeaders(part.replace(/^\r?\n/, ""));
      if ((p.headers.get("content-type") ?? "").toLowerCase().startsWith("text/plain")) {
        return { subject, text: decodeBody(p.body, p.headers.get("content-transfer-encoding")).trim() };
      }
    }
  }
  return { subject, text: decodeBody(body, headers.get("content-transfer-encoding")).trim() };
}
