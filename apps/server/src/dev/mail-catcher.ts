import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { SMTPServer } from "smtp-server";
import { parseMessage } from "../lib/sent-mail-parser.js";

// For development without a mail server: Tally's outbox withholds one-time links, so a
// developer who wants reset and verification links runs this and starts Tally with
// SMTP_URL=smtp://127.0.0.1:1025. It listens on 127.0.0.1 only and prints each mail.

export interface MailCatcher {
  port: number;
  close(): Promise<void>;
}

/** A local SMTP server on 127.0.0.1 that hands each received message to `onMail`. */
export async function listenForMail(
  port: number,
  onMail: (raw: string, to: string[]) => void,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        onMail(Buffer.concat(chunks).toString("utf8"), session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function startMailCatcher(opts: { port: number; print: (line: string) => void }): Promise<MailCatcher> {
  return listenForMail(opts.port, (raw, to) => {
    const mail = parseMessage(raw);
    opts.print(
      [`──── mail ${new Date().toISOString()} ────`, `To:      ${to.join(", ")}`, `Subject: ${mail.subject}`, "", mail.text, ""].join(
        "\n",
      ),
    );
  });
}

/** `npm run mail-catcher [-- --port N]` */
async function main(args: string[]): Promise<void> {
  const at = args.indexOf("--port");
  const port = at === -1 ? 1025 : Number(args[at + 1]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    console.error("Usage: npm run mail-catcher [-- --port 1025]");
    process.exit(2);
  }
  const catcher = await startMailCatcher({ port, print: (line) => console.log(line) });
  console.log(`Mail catcher listening on 127.0.0.1:${catcher.port}. Start Tally with:`);
  console.log(`  SMTP_URL=smtp://127.0.0.1:${catcher.port} npm start`);
  console.log("Each e-mail Tally sends is printed here, links included. Ctrl+C stops.");
  const stop = () => void catcher.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error("The mail catcher could not start:", err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
