/** A failure the person at the terminal can act on: printed as one message, never a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "CliError";
  }
}

/** Bad arguments: the message, then the command's usage, exit code 2. */
export class UsageError extends CliError {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message, 2);
    this.name = "UsageError";
  }
}
