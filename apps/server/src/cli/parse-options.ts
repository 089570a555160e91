import { MAX_DB_ID } from "@tally/contract";
import { parseArgs } from "node:util";
import { UsageError } from "./cli-errors.js";

/** Parses --name value options; anything unknown or malformed is a UsageError for that command. */
export function parseOptions<const N extends string>(
  command: string,
  args: string[],
  names: readonly N[],
): Partial<Record<N, string>> {
  try {
    const { values } = parseArgs({
      args,
      options: Object.fromEntries(names.map((n) => [n, { type: "string" as const }])),
      strict: true,
      allowPositionals: false,
    });
    return values as Partial<Record<N, string>>;
  } catch (err) {
    // node:util's messages name the option, e.g. "Unknown option '--nme'"; drop its advice about "--" separators.
    const message = (err as Error).message.split(". ")[0] ?? "Invalid arguments";
    throw new UsageError(message.endsWith(".") ? message : `${message}.`, command);
  }
}

/** A positive whole number option. */
export function positiveInt(command: string, option: string, value: string, max = MAX_DB_ID): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) {
    throw new UsageError(`--${option} must be a whole number from 1 to ${max} (got "${value}").`, command);
  }
  return n;
}
