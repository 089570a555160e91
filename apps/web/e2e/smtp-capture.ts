import { SMTPServer } from "smtp-server";

// A real SMTP server on 127.0.0.1 that keeps each message whole, for the journeys' servers to
// send to (SMTP_URL): the journeys read what a person would receive, not a mock transport.

export interface CapturedMail {
  /** The envelope's recipients, comma-separated. */
  to: string;
  raw: string;
}

/** Listens on `port`; `onMessage` sees each message as it arrives. Resolves once listening. */
export async function startSmtpCapture(port: number, onMessage: (message: CapturedMail) => void): Promise<{ close(): Promise<void> }> {
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (c: string) => {
        raw += c;
      });
      stream.on("end", () => {
        onMessage({ to: session.envelope.rcptTo.map((r) => r.address).join(","), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(port, "127.0.0.1", resolve));
  return { close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}
