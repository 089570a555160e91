// Reads the server log captured over a whole test run (every test app logs to TALLY_TEST_LOG_DIR)
// and finds what must never be in a log line: access tokens, refresh and one-time tokens, reset
// or verification links with their token, the passwords the tests sign in with, and the second
// factor's keys, codes and challenges.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Passwords the test factories and seeds use; a log line holding one leaked it. */
export const KNOWN_PASSWORDS = ["Correct-Horse-7", "Bench-Passw0rd!"];

const LEAKS = [
  { name: "access token (JWT)", pattern: /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}/ },
  // 32 random bytes in base64url: refresh tokens and e-mailed one-time tokens.
  { name: "refresh or one-time token", pattern: /(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{43}(?![\w-])/ },
  { name: "token in a link or query", pattern: /[?&#]token=(?!\[)[^\s"&]+/ },
  // Single sign-on: the provider's code and the flow's state and nonce in a callback or
  // authorization URL, the sign-in's one-time code in the /sso fragment, the flow cookie.
  { name: "single sign-on code or state in a URL", pattern: /[?&#](?:code|state|nonce|code_verifier)=(?!\[)[^\s"&]+/ },
  { name: "single sign-on flow cookie", pattern: /tally_oidc=[^\s";]{16,}/ },
  { name: "password field", pattern: /"(?:password|newPassword|currentPassword)"\s*:\s*"(?!\[Redacted\])/ },
  // The second factor: a TOTP key (160 bits in base32), its otpauth:// URL, a 6-digit code or a
  // recovery code in a body, a recovery code anywhere (two groups of five, at least one digit).
  { name: "TOTP key", pattern: /(?<![A-Za-z0-9])[A-Z2-7]{32}(?![A-Za-z0-9])/ },
  { name: "otpauth URL", pattern: /otpauth:\/\// },
  // Not an error's code: "INVALID_MFA_CODE", nor a database error's SQLSTATE ("42P01", five
  // characters; a TOTP code has six digits).
  { name: "second-factor code field", pattern: /"(?:code|secret|challenge)"\s*:\s*"(?!\[Redacted\])(?![A-Z_]+")(?![0-9A-Z]{5}")/ },
  { name: "recovery code", pattern: /(?<![\w-])(?=[a-z-]*[2-7])[a-z2-7]{5}-[a-z2-7]{5}(?![\w-])/ },
];

/** The leaks in one log's text: [{ name, line }] (line numbers from 1). */
export function findLeaks(text, passwords = KNOWN_PASSWORDS) {
  const found = [];
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    for (const leak of LEAKS) if (leak.pattern.test(line)) found.push({ name: leak.name, line: i + 1 });
    for (const password of passwords) if (line.includes(password)) found.push({ name: "a test password", line: i + 1 });
  });
  return found;
}

/** Checks every log file of a run; returns what to print and whether the run's log is clean. */
export function checkLogDir(dir) {
  const files = readdirSync(dir).filter((f) => f.endsWith(".log"));
  let lines = 0;
  let signIns = 0;
  const problems = [];
  for (const file of files) {
    const text = readFileSync(join(dir, file), "utf8");
    for (const line of text.split("\n")) {
      if (!line) continue;
      lines++;
      if (line.includes('"url":"/api/auth/login"')) signIns++;
    }
    for (const leak of findLeaks(text)) problems.push(`${file}:${leak.line}: ${leak.name}`);
  }
  // A run whose log caught nothing would pass by proving nothing.
  if (signIns === 0) problems.push(`no sign-in request in ${lines} captured log lines: the test apps did not log`);
  return { ok: problems.length === 0, lines, signIns, files: files.length, problems };
}
