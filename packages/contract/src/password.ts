import { LIMITS } from "./limits.js";

/** Spec section 5: one point each for 8+ characters, uppercase, lowercase, digit, special. */
export function passwordStrength(password: string): number {
  let score = 0;
  if (password.length >= LIMITS.minPasswordLength) score++;
  if (/[A-Z]/.test(password)) score++;
  if (/[a-z]/.test(password)) score++;
  if (/\d/.test(password)) score++;
  if (/[^A-Za-z0-9]/.test(password)) score++;
  return score;
}

/** Meter colour: red at 2 or less, yellow at 3, green above. */
export function strengthColor(score: number): "red" | "yellow" | "green" {
  if (score <= 2) return "red";
  if (score === 3) return "yellow";
  return "green";
}

export const GENERATED_PASSWORD_ALPHABET =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*";

/** 12 characters from letters, digits and !@#$%^&*, drawn with a CSPRNG. */
export function generatePassword(
  length: number = LIMITS.generatedPasswordLength,
  random: (n: number) => Uint8Array = (n) => globalThis.crypto.getRandomValues(new Uint8Array(n)),
): string {
  const alphabet = GENERATED_PASSWORD_ALPHABET;
  // Rejection sampling keeps every character equally likely.
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    for (const byte of random(length * 2)) {
      if (byte < limit && out.length < length) out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}
