import { randomInt } from "node:crypto";
import { LIMITS } from "@tally/contract";
import { keyedHash } from "../../lib/secret-box.js";

// Ten letters and digits of base32 (no 0/1/8/9 to mistake for O/I/B/g): 50 bits each, so a
// keyed SHA-256 is enough to keep them (no slow hash needed: they cannot be guessed offline
// without SECRET_KEY, nor online past the attempt limit).
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

function oneCode(): string {
  const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`;
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: LIMITS.mfaRecoveryCodeCount }, oneCode);
}

/** Case, spaces and the dash do not matter. */
export function hashRecoveryCode(secretKey: string, code: string): string {
  return keyedHash(secretKey, "mfa recovery code", code.toLowerCase().replace(/[\s-]/g, ""));
}
