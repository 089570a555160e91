import {
  forgotPasswordRequestSchema,
  idParamSchema,
  loginRequestSchema,
  loginResponseSchema,
  logoutRequestSchema,
  MESSAGES,
  messageSchema,
  profileResponseSchema,
  refreshRequestSchema,
  refreshResponseSchema,
  registerRequestSchema,
  registerResponseSchema,
  resetTokenQuerySchema,
  setPasswordRequestSchema,
  verifyEmailQuerySchema,
  verifyEmailRequestSchema,
  verifyEmailResponseSchema,
  verifyResetTokenRequestSchema,
  verifyResetTokenResponseSchema,
} from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { unauthenticated } from "../../lib/errors.js";
import { clientAddressOf } from "../../lib/forwarded-address.js";
import { loadSessionUser } from "../users/accounts.service.js";
import { requestPasswordReset } from "../users/password-resets.service.js";
import { registerUser } from "../users/registration.service.js";
import { USER_MANAGER_ROLES } from "../users/users.policy.js";
import { login, logout, refresh } from "./auth.service.js";
import { verifyEmail } from "./email-verification.service.js";
import { forgotPasswordInBackground, setPasswordWithToken, verifyResetToken } from "./password.service.js";

export const authRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const tags = ["auth"];

  app.post(
    "/auth/login",
    {
      schema: {
        tags,
        summary: "Sign in with a username or e-mail and a password",
        operationId: "login",
        body: loginRequestSchema,
        response: { 200: loginResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) =>
      login(ctx, {
        login: request.body.login,
        password: request.body.password,
        // The client as the proxies named by TRUST_PROXY report it (when it is an IP address), else the socket address.
        ipAddress: clientAddressOf(request),
        userAgent: request.headers["user-agent"] ?? null,
      }),
  );

  app.post(
    "/auth/refresh",
    {
      schema: {
        tags,
        summary: "A new access and refresh token for a refresh token",
        operationId: "refreshTokens",
        body: refreshRequestSchema,
        response: { 200: refreshResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => refresh(ctx, request.body.refreshToken),
  );

  app.post(
    "/auth/logout",
    {
      schema: {
        tags,
        summary: "Sign out: end the sign-in the refresh token belongs to",
        operationId: "logout",
        body: logoutRequestSchema.nullish(),
        response: { 200: messageSchema, ...errorResponses(400) },
      },
    },
    async (request) => {
      await logout(ctx, request.body?.refreshToken);
      return { message: "Logged out" };
    },
  );

  app.get(
    "/auth/profile",
    {
      onRequest: app.authenticate,
      // The web app reads the user with it, also while walking an admin to enrolment.
      config: { enrolment: true },
      schema: {
        tags,
        summary: "The signed-in user, with its schools and permissions",
        operationId: "getProfile",
        response: { 200: profileResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const user = await loadSessionUser(ctx.database.db, request.user.id);
      if (!user) throw unauthenticated();
      return { user };
    },
  );

  app.post(
    "/auth/forgot-password",
    {
      schema: {
        tags,
        summary: "E-mail a password reset link (the same answer whether the address has an account or not)",
        operationId: "forgotPassword",
        body: forgotPasswordRequestSchema,
        response: { 200: messageSchema, ...errorResponses(400) },
      },
    },
    async (request) => {
      forgotPasswordInBackground(ctx, request.body.email, request.log);
      return { message: MESSAGES.resetRequestSuccess };
    },
  );

  // The token checks take the token in a POST body; the GET forms stay for links and clients
  // made before, and the request log drops their query string.
  app.post(
    "/auth/verify-reset-token",
    {
      schema: {
        tags,
        summary: "Whether a password reset token can still be used",
        operationId: "verifyResetToken",
        body: verifyResetTokenRequestSchema,
        response: { 200: verifyResetTokenResponseSchema, ...errorResponses(400) },
      },
    },
    async (request) => ({ valid: await verifyResetToken(ctx, request.body.token) }),
  );

  app.get(
    "/auth/verify-reset-token",
    {
      schema: {
        tags,
        summary: "Whether a password reset token can still be used (the token in the query)",
        operationId: "verifyResetTokenInQuery",
        querystring: resetTokenQuerySchema,
        response: { 200: verifyResetTokenResponseSchema, ...errorResponses(400) },
      },
    },
    async (request) => ({ valid: await verifyResetToken(ctx, request.query.token) }),
  );

  app.post(
    "/auth/set-password",
    {
      schema: {
        tags,
        summary: "Set a new password with a reset token",
        operationId: "setPassword",
        body: setPasswordRequestSchema,
        response: { 200: messageSchema, ...errorResponses(400) },
      },
    },
    async (request) => {
      await setPasswordWithToken(ctx, request.body.token, request.body.password);
      return { message: MESSAGES.resetSuccess };
    },
  );

  app.post(
    "/auth/verify",
    {
      schema: {
        tags,
        summary: "Verify an e-mail address with its token",
        operationId: "verifyEmail",
        body: verifyEmailRequestSchema,
        response: { 200: verifyEmailResponseSchema, ...errorResponses(400) },
      },
    },
    async (request) => {
      await verifyEmail(ctx, request.body.token);
      return { message: MESSAGES.verifySuccess };
    },
  );

  app.get(
    "/auth/verify",
    {
      schema: {
        tags,
        summary: "Verify an e-mail address with its token (the token in the query)",
        operationId: "verifyEmailInQuery",
        querystring: verifyEmailQuerySchema,
        response: { 200: verifyEmailResponseSchema, ...errorResponses(400) },
      },
    },
    async (request) => {
      await verifyEmail(ctx, request.query.token);
      return { message: MESSAGES.verifySuccess };
    },
  );

  app.post(
    "/auth/register",
    {
      onRequest: app.requireRoles(...USER_MANAGER_ROLES),
      schema: {
        tags,
        summary: "Create a user account (a verification e-mail goes out)",
        operationId: "registerUser",
        body: registerRequestSchema,
        response: { 201: registerResponseSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const user = await registerUser(ctx, request.user, request.body, request.log);
      return reply.status(201).send({ message: "User created successfully", user });
    },
  );

  app.post(
    "/auth/request-reset/:id",
    {
      onRequest: app.requireRoles(...USER_MANAGER_ROLES),
      schema: {
        tags,
        summary: "E-mail a user a password reset link",
        operationId: "sendPasswordResetLink",
        params: idParamSchema,
        response: { 200: messageSchema, ...errorResponses(400, 401, 403, 404, 502) },
      },
    },
    async (request) => {
      await requestPasswordReset(ctx, request.user, request.params.id, request.log);
      return { message: "Password reset link has been sent" };
    },
  );
};
