import { CliError } from "./cli-errors.js";
import type { CliIo } from "./cli-io.js";

/** The real terminal: console output and, when stdin is a TTY, hidden password input. */
export function terminalIo(): CliIo {
  return {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    readSecret: process.stdin.isTTY ? readHidden : undefined,
  };
}

function readHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (err?: Error) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stdout.write("\n");
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n" || ch === "\u0004") return finish();
        if (ch === "\u0003") return finish(new CliError("Cancelled.", 130));
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else if (ch >= " ") value += ch;
      }
    };
    process.stdout.write(prompt);
    stdin.setEncoding("utf8");
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on("data", onData);
  });
}
