import { afterAll } from "vitest";
import { listenForMail } from "../src/dev/mail-catcher.js";
import { createMailer, type Mailer } from "../src/lib/mailer.js";
import { parseMessage } from "../src/lib/sent-mail-parser.js";
import { filledBeforeAll } from "./filled-before-all.js";

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
  const server = await listenForMail(0, (raw, to) => {
    messages.push({ ...parseMessage(raw), to, raw });
    for (const wake of waiters.splice(0)) wake();
  });
  const port = server.port;
  const smtpUrl = `smtp://127.0.0.1:${port}`;
  // In SMTP mode the mailer never touches the database.
  const mailer = createMailer({
    smtpUrl,
    from: "Tally <no-reply@tally.test>",
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
    close: () => server.close(),
  };
}

/** The SMTP server of one test file: started in beforeAll, closed in afterAll. */
export function useSmtpTestServer(): SmtpTestServer {
  const smtp = filledBeforeAll(startSmtpTestServer);
  afterAll(() => smtp.close?.());
  return smtp;
}
