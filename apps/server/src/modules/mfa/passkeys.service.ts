import { MESSAGES, type PasskeyOptionsResponse } from "@tally/contract";
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import type { FastifyBaseLogger } from "fastify";
import type { ServerContext } from "../../context.js";
import { AppError, badRequest } from "../../lib/errors.js";
import { keyedHash } from "../../lib/secret-box.js";
import { recordChange } from "../audit/audit.service.js";
import { sendInBackground } from "../mail/background-mail.js";
import { secondFactorMail } from "./mfa-mail.js";
import * as mfaRepo from "./mfa.repository.js";
import { hasSecondFactor, type MfaAccount } from "./mfa.service.js";
import * as repo from "./passkeys.repository.js";

// The relying party is Tally at APP_URL: its host name is the RP ID, its origin the only
// origin accepted, so a passkey made for Tally answers nowhere else and no other site's answer works here.
const REGISTRATION_TTL_MS = 5 * 60_000;
const CHALLENGE_PURPOSE = "mfa challenge";

function relyingParty(ctx: ServerContext) {
  const url = new URL(ctx.config.appUrl);
  return { rpID: url.hostname, origin: url.origin };
}

// The library's option types are closed interfaces; the contract's schema passes their fields through.
const asOptionsJson = (options: { challenge: string }): PasskeyOptionsResponse => ({ ...options });
const transportsOf = (text: string | null) => (text ? (text.split(",") as AuthenticatorTransportFuture[]) : undefined);
const refused = () => badRequest(MESSAGES.passkeyRegistrationFailed);
const passkeyFailed = () => new AppError(401, "INVALID_MFA_CODE", MESSAGES.passkeyFailed);

/**
 * POST /auth/mfa/passkey/register/options: creation options for a signed-in account that has
 * two-step sign-in on (the passkey is another way to give the second step, the recovery codes
 * come with the authenticator app). Its challenge waits 5 minutes for the browser's answer.
 */
export async function startPasskeyRegistration(ctx: ServerContext, account: MfaAccount) {
  const db = ctx.database.db;
  if (!(await hasSecondFactor(db, account.id))) throw badRequest(MESSAGES.passkeyNeedsTotp);
  const { rpID } = relyingParty(ctx);
  const existing = await repo.listPasskeys(db, account.id);
  const options = await generateRegistrationOptions({
    rpName: "Tally",
    rpID,
    userName: account.username,
    userDisplayName: account.email,
    userID: new TextEncoder().encode(`tally-user-${account.id}`),
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  await repo.savePendingRegistration(db, account.id, options.challenge, new Date(ctx.clock.now().getTime() + REGISTRATION_TTL_MS));
  return asOptionsJson(options);
}

/** POST /auth/mfa/passkey/register: checks the authenticator's answer and keeps the credential. */
export async function finishPasskeyRegistration(
  ctx: ServerContext,
  account: MfaAccount,
  response: RegistrationResponseJSON,
  log: FastifyBaseLogger,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.database.db.transaction().execute(async (trx) => {
    const expectedChallenge = await repo.takePendingRegistration(trx, account.id, now);
    if (!expectedChallenge) throw refused();
    const { rpID, origin } = relyingParty(ctx);
    // The library throws on a malformed answer; to the person it is the same refusal.
    const result = await verifyRegistrationResponse({ response, expectedChallenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: false }).catch(
      () => undefined,
    );
    if (!result?.verified || !result.registrationInfo) throw refused();
    const { credential } = result.registrationInfo;
    const saved = await repo.insertPasskey(
      trx,
      {
        credentialId: credential.id,
        userId: account.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports?.join(",") ?? null,
      },
      now,
    );
    if (!saved) throw refused();
    await recordChange(trx, { actorId: account.id, action: "mfa.passkey.registered", entity: "user", entityId: account.id, before: null, after: { passkey: true }, at: now });
  });
  sendInBackground(ctx, secondFactorMail(account.email, "passkey_registered", { appUrl: ctx.config.appUrl }), log);
}

/**
 * POST /auth/mfa/passkey/options: request options for the account of an open sign-in challenge,
 * limited to its passkeys; the WebAuthn challenge is kept on the sign-in challenge, so the
 * answer is only good for that sign-in.
 */
export async function passkeySignInOptions(ctx: ServerContext, challenge: string) {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const idHash = keyedHash(ctx.config.mfaEncryptionKey ?? ctx.config.secretKey, CHALLENGE_PURPOSE, challenge);
  const open = await mfaRepo.findOpenChallenge(db, idHash, now);
  if (!open) throw new AppError(401, "MFA_CHALLENGE_INVALID", MESSAGES.mfaChallengeExpired);
  const passkeys = await repo.listPasskeys(db, open.user_id);
  if (passkeys.length === 0) throw badRequest(MESSAGES.passkeyNone);
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx).rpID,
    allowCredentials: passkeys.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
    userVerification: "preferred",
  });
  if (!(await repo.setSignInWebauthnChallenge(db, idHash, options.challenge, now))) {
    throw new AppError(401, "MFA_CHALLENGE_INVALID", MESSAGES.mfaChallengeExpired);
  }
  return asOptionsJson(options);
}

/**
 * Checks a passkey's signed answer for an open sign-in challenge whose options were asked for:
 * the credential must be the account's, the signature right, and the counter higher than the
 * last one (taken in one statement). True when it signs the person in.
 */
export async function checkPasskey(
  ctx: ServerContext,
  account: { id: number },
  expectedChallenge: string | null,
  response: AuthenticationResponseJSON,
): Promise<boolean> {
  if (!expectedChallenge) return false;
  const db = ctx.database.db;
  const stored = await repo.findPasskey(db, account.id, response.id);
  if (!stored) return false;
  const { rpID, origin } = relyingParty(ctx);
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: { id: stored.credential_id, publicKey: isoBase64URL.toBuffer(stored.public_key), counter: Number(stored.counter), transports: transportsOf(stored.transports) },
    requireUserVerification: false,
  }).catch(() => undefined);
  if (!result?.verified) return false;
  return repo.takePasskeyCounter(db, stored.credential_id, result.authenticationInfo.newCounter, ctx.clock.now());
}

export { passkeyFailed };
