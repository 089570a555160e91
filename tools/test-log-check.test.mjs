import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkLogDir, findLeaks } from "./test-log-check.mjs";

const signIn = '{"level":30,"reqId":"4f1c2a9e-8d7b-4c55-9a31-2b7e0f6d1c44","req":{"method":"POST","url":"/api/auth/login"},"msg":"incoming request"}';
const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMiIsInNpZCI6ImFiYyJ9.c2lnbmF0dXJlLXBhcnQtaGVyZQ";
const refresh = "q3JtZ1k9bW9uZGF5LXRva2VuLXRoYXQtaXMtMzJieXQ"; // 43 base64url characters

const names = (line) => findLeaks(line).map((l) => l.name);

function dirWith(text) {
  const dir = mkdtempSync(join(tmpdir(), "log-check-"));
  writeFileSync(join(dir, "1-1.log"), text);
  return dir;
}

describe("the whole-run log check", () => {
  it("finds access tokens, refresh and one-time tokens, tokens in links, password fields and test passwords", () => {
    expect(names(`{"msg":"Bearer ${jwt}"}`)).toContain("access token (JWT)");
    expect(names(`{"refreshToken":"${refresh}"}`)).toContain("refresh or one-time token");
    expect(names('{"url":"/set-password#token=abc123"}')).toContain("token in a link or query");
    expect(names('{"url":"/api/notifications?token=abc"}')).toContain("token in a link or query");
    expect(names('{"body":{"password":"hunter22"}}')).toContain("password field");
    expect(names('{"url":"/api/auth/oidc/google/callback?code=abc&state=xyz"}')).toContain("single sign-on code or state in a URL");
    expect(names('{"location":"https://tally.example.org/sso#code=abc"}')).toContain("single sign-on code or state in a URL");
    expect(names('{"cookie":"tally_oidc=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0"}')).toContain("single sign-on flow cookie");
    expect(names('{"msg":"signed in with Correct-Horse-7"}')).toContain("a test password");
  });

  it("finds the second factor's keys, URLs, codes, challenges and recovery codes", () => {
    expect(names('{"msg":"key JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"}')).toContain("TOTP key");
    expect(names('{"url":"otpauth://totp/Tally:a@b?secret=X"}')).toContain("otpauth URL");
    expect(names('{"body":{"code":"123456"}}')).toContain("second-factor code field");
    expect(names('{"body":{"challenge":"abc"}}')).toContain("second-factor code field");
    expect(names('{"msg":"used k3vq7-mxa2b"}')).toContain("recovery code");
  });

  it("passes error codes, redacted codes and kebab-case words", () => {
    expect(findLeaks('{"res":{"code":"MFA_ENROLMENT_REQUIRED"},"body":{"code":"[Redacted]"},"url":"/api/audit-trail/users-login"}')).toEqual([]);
    // A database error's SQLSTATE in a logged error (a query racing a test's teardown).
    expect(findLeaks('{"err":{"type":"PgliteQueryError","code":"42P01"}}')).toEqual([]);
  });

  it("passes request ids, hex digests, redacted fields and paths", () => {
    const clean = [
      signIn,
      '{"sha256":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}',
      '{"body":{"password":"[Redacted]"},"url":"/api/notifications"}',
      '{"url":"/api/auth/oidc/google/callback","statusCode":303}',
      '{"error":"Invalid credentials","code":"INVALID_CREDENTIALS"}',
      '{"msg":"[one-time link withheld: it is only delivered by e-mail]"}',
    ].join("\n");
    expect(findLeaks(clean)).toEqual([]);
  });

  it("fails a run whose log holds a secret, naming the file and line, and passes a clean one", () => {
    const leaky = checkLogDir(dirWith(`${signIn}\n{"msg":"reset link https://x/set-password#token=${refresh}"}\n`));
    expect(leaky.ok).toBe(false);
    expect(leaky.problems.join("\n")).toContain("1-1.log:2");
    expect(checkLogDir(dirWith(`${signIn}\n`)).ok).toBe(true);
  });

  it("fails a run that captured no sign-in: an empty log proves nothing", () => {
    const empty = checkLogDir(mkdtempSync(join(tmpdir(), "log-check-")));
    expect(empty.ok).toBe(false);
    expect(empty.problems[0]).toMatch(/no sign-in request/);
  });
});
