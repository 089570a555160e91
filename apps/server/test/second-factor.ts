import type { MfaChallengeResponse, ReauthRequest, RecoveryCodesResponse, SignedInResponse, TotpEnrollResponse } from "@tally/contract";
import type { Clock } from "../src/lib/clock.js";
import { totpCodeAt } from "../src/modules/mfa/totp.js";
import type { BuiltUser } from "./factories.js";
import { loginAs, type TestApp } from "./test-app.js";

/** The length of one TOTP step. */
export const STEP_MS = 30_000;

/** An account signed in and enrolled in TOTP through the API, as a person does it from the profile. */
export interface EnrolledUser {
  user: BuiltUser;
  secret: string;
  recoveryCodes: string[];
  /** The code an authenticator app shows at `at` (default: the app's clock now). */
  codeAt(at?: Date): string;
}

/** POST /auth/mfa/reauth: the sign-in of `headers` proves its person again, so it may add a second factor for a few minutes. */
export async function reauth(t: TestApp, headers: { authorization: string }, proof: ReauthRequest): Promise<void> {
  const res = await t.app.inject({ method: "POST", url: "/api/auth/mfa/reauth", headers, payload: proof });
  if (res.statusCode !== 200) throw new Error(`reauth: ${res.statusCode} ${res.body}`);
}

export async function enrolTotp(t: TestApp, user: BuiltUser, clock: Clock): Promise<EnrolledUser> {
  const { headers } = await loginAs(t.app, user);
  await reauth(t, headers, { password: user.password });
  const enrol = await t.app.inject({ method: "POST", url: "/api/auth/mfa/totp/enroll", headers });
  if (enrol.statusCode !== 200) throw new Error(`enroll: ${enrol.statusCode} ${enrol.body}`);
  const { secret } = enrol.json<TotpEnrollResponse>();
  const confirm = await t.app.inject({
    method: "POST",
    url: "/api/auth/mfa/totp/confirm",
    headers,
    payload: { code: totpCodeAt(secret, clock.now()) },
  });
  if (confirm.statusCode !== 200) throw new Error(`confirm: ${confirm.statusCode} ${confirm.body}`);
  return {
    user,
    secret,
    recoveryCodes: confirm.json<RecoveryCodesResponse>().recoveryCodes,
    codeAt: (at = clock.now()) => totpCodeAt(secret, at),
  };
}

/** The password step of signing in an enrolled account: its challenge. */
export async function passwordStep(t: TestApp, user: { username: string; password: string }, remoteAddress?: string): Promise<string> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { login: user.username, password: user.password },
    remoteAddress,
  });
  const body = res.json<MfaChallengeResponse | SignedInResponse>();
  if (res.statusCode !== 200 || !("mfaRequired" in body)) throw new Error(`no challenge: ${res.statusCode} ${res.body}`);
  return body.challenge;
}

export function verify(t: TestApp, challenge: string, code: string, remoteAddress?: string) {
  return t.app.inject({ method: "POST", url: "/api/auth/mfa/verify", payload: { challenge, code }, remoteAddress });
}
