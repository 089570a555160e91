import { dictionary } from "@zxcvbn-ts/language-common";
import { commonPassword } from "./errors.js";

let common: Set<string> | undefined;

/**
 * True for a password from zxcvbn's list of ~49,000 leaked passwords (read once, on first use).
 * Rule: the password lower-cased, or lower-cased with its trailing digits and symbols cut off, is on the list.
 */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary.passwords.map((p) => p.toLowerCase()));
  const lower = password.toLowerCase();
  const word = lower.replace(/[^\p{L}]+$/u, "");
  return common.has(lower) || (word.length > 0 && common.has(word));
}

/** Throws the 400 every route gives for a common password (register, reset link, admin reset). */
export function refuseCommonPassword(password: string): void {
  if (isCommonPassword(password)) throw commonPassword();
}
