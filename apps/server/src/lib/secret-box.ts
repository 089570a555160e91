import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

// Secrets the server must read back (a TOTP key) are sealed with AES-256-GCM under a key
// derived from SECRET_KEY, so a copy of the database alone (a backup, a leaked dump) does not
// give them away. Stored as "v1.<iv>.<tag>.<ciphertext>", base64url.

const VERSION = "v1";

function keyFor(secretKey: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secretKey, "tally", purpose, 32));
}

export function sealSecret(secretKey: string, purpose: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(secretKey, purpose), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), data].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** The plain text, or undefined when the box was sealed under another SECRET_KEY (or is damaged). */
export function openSecret(secretKey: string, purpose: string, sealed: string): string | undefined {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || data === undefined) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFor(secretKey, purpose), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}

/** A keyed hash for one-time codes kept only to be recognised (recovery codes, challenges). */
export function keyedHash(secretKey: string, purpose: string, value: string): string {
  return createHmac("sha256", keyFor(secretKey, purpose)).update(value).digest("base64url");
}
