import {
  isAdminRole,
  loginResponseSchema,
  mfaStatusResponseSchema,
  mfaVerifyRequestSchema,
  messageSchema,
  passkeyChallengeRequestSchema,
  passkeyOptionsResponseSchema,
  passkeyRegisterRequestSchema,
  passkeyVerifyRequestSchema,
  reauthRequestSchema,
  recoveryCodesResponseSchema,
  totpCodeRequestSchema,
  totpEnrollResponseSchema,
} from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { clientAddressOf } from "../../lib/forwarded-address.js";
import {
  confirmTotpEnrolment,
  regenerateRecoveryCodes,
  removeSecondFactor,
  secondFactorStatus,
  startTotpEnrolment,
} from "../mfa/mfa.service.js";
import { finishPasskeyRegistration, passkeySignInOptions, startPasskeyRegistration } from "../mfa/passkeys.service.js";
import { proveAgain, requireFreshProof } from "./mfa-reauth.service.js";
import { requireCurrentCode, verifyPasskeySignIn, verifySecondFactor } from "./mfa-sign-in.service.js";

/** The second factor of signing in: finishing a sign-in with it, and a person's own enrolment. */
export const mfaAuthRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const tags = ["auth"];

  app.post(
    "/auth/mfa/verify",
    {
      schema: {
        tags,
        summary: "Finish a sign-in with its challenge and a TOTP or recovery code",
        operationId: "verifySecondFactor",
        body: mfaVerifyRequestSchema,
        response: { 200: loginResponseSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) =>
      verifySecondFactor(
        ctx,
        {
          challenge: request.body.challenge,
          code: request.body.code,
          ipAddress: clientAddressOf(request),
          userAgent: request.headers["user-agent"] ?? null,
        },
        request.log,
      ),
  );

  app.get(
    "/auth/mfa",
    {
      onRequest: app.authenticate,
      config: { enrolment: true },
      schema: {
        tags,
        summary: "The signed-in user's second factor",
        operationId: "getSecondFactor",
        response: { 200: mfaStatusResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({
      ...(await secondFactorStatus(ctx.database.db, request.user.id)),
      // Not for a sign-in the provider made with two factors: nothing is refused to it.
      required: ctx.config.requireMfaForAdmins && isAdminRole(request.user.role) && !request.user.providerTwoFactor,
    }),
  );

  app.post(
    "/auth/mfa/reauth",
    {
      onRequest: app.authenticate,
      config: { enrolment: true },
      schema: {
        tags,
        summary:
          "Confirm it is you (the password, or a current code from the authenticator app): for the next few minutes this sign-in may add or remove a second factor",
        operationId: "reauthenticate",
        body: reauthRequestSchema,
        response: { 200: messageSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      await proveAgain(ctx, request.user, request.body, clientAddressOf(request));
      return { message: "Confirmed" };
    },
  );

  // Adding a factor needs a fresh proof (mfa-reauth.service.ts); confirming the new key needs
  // nothing more, since only this answer's caller knows the key it confirms.
  app.post(
    "/auth/mfa/totp/enroll",
    {
      onRequest: app.authenticate,
      config: { enrolment: true },
      schema: {
        tags,
        summary: "Start setting up an authenticator app: a new key, as text and as a QR code",
        operationId: "enrollTotp",
        response: { 200: totpEnrollResponseSchema, ...errorResponses(401, 403, 409) },
      },
    },
    async (request) => {
      await requireFreshProof(ctx, request.user);
      return startTotpEnrolment(ctx, request.user);
    },
  );

  app.post(
    "/auth/mfa/totp/confirm",
    {
      onRequest: app.authenticate,
      config: { enrolment: true },
      schema: {
        tags,
        summary: "Confirm the authenticator app with a code; answers the recovery codes, shown this once",
        operationId: "confirmTotp",
        body: totpCodeRequestSchema,
        response: { 200: recoveryCodesResponseSchema, ...errorResponses(400, 401, 409) },
      },
    },
    async (request) => ({ recoveryCodes: await confirmTotpEnrolment(ctx, request.user, request.body.code, request.log) }),
  );

  app.delete(
    "/auth/mfa/totp",
    {
      onRequest: app.authenticate,
      config: { enrolment: true },
      schema: {
        tags,
        summary: "Turn two-step sign-in off, with a current code",
        operationId: "removeTotp",
        body: totpCodeRequestSchema,
        response: { 200: messageSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      await requireCurrentCode(ctx, request.user, request.body.code);
      await removeSecondFactor(ctx, request.user, request.log);
      return { message: "Two-step sign-in is off" };
    },
  );

  app.post(
    "/auth/mfa/recovery-codes",
    {
      onRequest: app.authenticate,
      config: { enrolment: true },
      schema: {
        tags,
        summary: "New recovery codes (the old ones stop working), with a current code",
        operationId: "regenerateRecoveryCodes",
        body: totpCodeRequestSchema,
        response: { 200: recoveryCodesResponseSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      await requireCurrentCode(ctx, request.user, request.body.code);
      return { recoveryCodes: await regenerateRecoveryCodes(ctx, request.user, request.log) };
    },
  );

  // Adding a passkey is not enrolment (it needs two-step sign-in on already), so an admin who
  // must enrol is walked to the authenticator app first, as on every other route. The options
  // need a fresh proof; the answer needs nothing more, since it must sign their challenge.
  app.post(
    "/auth/mfa/passkey/register/options",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Start adding a passkey (two-step sign-in must be on): options for navigator.credentials.create()",
        operationId: "passkeyRegistrationOptions",
        response: { 200: passkeyOptionsResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      await requireFreshProof(ctx, request.user);
      return startPasskeyRegistration(ctx, request.user);
    },
  );

  app.post(
    "/auth/mfa/passkey/register",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Finish adding a passkey with the authenticator's answer",
        operationId: "registerPasskey",
        body: passkeyRegisterRequestSchema,
        response: { 200: messageSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      // The contract checks the outline; the WebAuthn library checks every field it reads.
      await finishPasskeyRegistration(ctx, request.user, request.body.response as never, request.log);
      return { message: "Passkey added" };
    },
  );

  app.post(
    "/auth/mfa/passkey/options",
    {
      schema: {
        tags,
        summary: "Options for finishing a sign-in with a passkey, bound to the sign-in's challenge",
        operationId: "passkeySignInOptions",
        body: passkeyChallengeRequestSchema,
        response: { 200: passkeyOptionsResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => passkeySignInOptions(ctx, request.body.challenge),
  );

  app.post(
    "/auth/mfa/passkey/verify",
    {
      schema: {
        tags,
        summary: "Finish a sign-in with its challenge and a passkey's signed answer",
        operationId: "verifyPasskey",
        body: passkeyVerifyRequestSchema,
        response: { 200: loginResponseSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) =>
      verifyPasskeySignIn(ctx, {
        challenge: request.body.challenge,
        response: request.body.response as never,
        ipAddress: clientAddressOf(request),
        userAgent: request.headers["user-agent"] ?? null,
      }),
  );
};
