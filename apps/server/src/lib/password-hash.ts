import { hash, verify } from "@node-rs/argon2";

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane), stated explicitly so a library
// default change never silently weakens or slows sign-in.
const PARAMS = { algorithm: 2 /* Argon2id; the package exports it as an ambient const enum */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PARAMS);
}

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/** A hash to verify against when the account is unknown, so every failure costs the same. */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword("tally-timing-equaliser-not-a-password");
  return dummy;
}
