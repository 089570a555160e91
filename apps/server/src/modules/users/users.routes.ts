import {
  adminResetPasswordRequestSchema,
  adminResetPasswordResponseSchema,
  loginLogsQuerySchema,
  loginLogsResponseSchema,
  MESSAGES,
  setUserSchoolRequestSchema,
  setUserSchoolsRequestSchema,
  setUserSchoolsResponseSchema,
  updateUserRequestSchema,
  userIdParamSchema,
  userMutationResponseSchema,
  userSchoolsResponseSchema,
  usersListResponseSchema,
} from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { USER_MANAGER_ROLES } from "./users.policy.js";
import { resetPassword } from "./password-resets.service.js";
import * as users from "./users.service.js";

export const usersRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const db = ctx.database.db;
  // onRequest: other roles are refused before their body is even parsed.
  const onRequest = app.requireRoles(...USER_MANAGER_ROLES);
  const tags = ["users"];
  const params = userIdParamSchema;
  // One account's routes: a missing account is a 404, one the caller may not manage a 403.
  const accountErrors = errorResponses(400, 401, 403, 404);

  app.get(
    "/users",
    {
      onRequest,
      schema: {
        tags,
        summary: "Every user account, active or not",
        operationId: "listUsers",
        response: { 200: usersListResponseSchema, ...errorResponses(401, 403) },
      },
    },
    async () => ({ data: await users.listUsers(db) }),
  );

  app.put(
    "/users/:id",
    {
      onRequest,
      schema: {
        tags,
        summary: "Edit a user account (reactivating one e-mails a reset link)",
        operationId: "updateUser",
        params,
        body: updateUserRequestSchema,
        response: { 200: userMutationResponseSchema, ...accountErrors, ...errorResponses(409, 502) },
      },
    },
    async (request) => ({
      message: MESSAGES.userUpdated,
      user: await users.updateUser(ctx, request.user, request.params.id, request.body, request.log),
    }),
  );

  // No data is deleted: the account just stops working.
  app.delete(
    "/users/:id",
    {
      onRequest,
      schema: {
        tags,
        summary: "Deactivate a user account (nothing is deleted)",
        operationId: "deleteUser",
        params,
        response: { 200: userMutationResponseSchema, ...accountErrors },
      },
    },
    async (request) => users.deactivateUser(ctx, request.user, request.params.id),
  );
  app.post(
    "/users/:id/deactivate",
    {
      onRequest,
      schema: {
        tags,
        summary: "Deactivate a user account",
        operationId: "deactivateUser",
        params,
        response: { 200: userMutationResponseSchema, ...accountErrors },
      },
    },
    async (request) => users.deactivateUser(ctx, request.user, request.params.id),
  );

  app.post(
    "/users/:id/reactivate",
    {
      onRequest,
      schema: {
        tags,
        summary: "Reactivate a user account and e-mail its owner a reset link",
        operationId: "reactivateUser",
        params,
        response: { 200: userMutationResponseSchema, ...accountErrors, ...errorResponses(502) },
      },
    },
    async (request) => users.reactivateUser(ctx, request.user, request.params.id, request.log),
  );

  app.post(
    "/users/:id/reset-password",
    {
      onRequest,
      schema: {
        tags,
        summary: "Set a user's password, or e-mail a reset link when none is given",
        operationId: "resetUserPassword",
        params,
        // Optional body: no password means "e-mail a reset link".
        body: adminResetPasswordRequestSchema.nullish(),
        response: { 200: adminResetPasswordResponseSchema, ...accountErrors, ...errorResponses(502) },
      },
    },
    async (request) => ({
      message: await resetPassword(ctx, request.user, request.params.id, request.body?.password, request.log),
    }),
  );

  app.put(
    "/users/:id/school",
    {
      onRequest,
      schema: {
        tags,
        summary: "Set a school user's school",
        operationId: "setUserSchool",
        params,
        body: setUserSchoolRequestSchema,
        response: { 200: userMutationResponseSchema, ...accountErrors },
      },
    },
    async (request) => users.setUserSchool(ctx, request.user, request.params.id, request.body.school_id),
  );

  app.get(
    "/users/:id/schools",
    {
      onRequest,
      schema: {
        tags,
        summary: "The schools assigned to a user",
        operationId: "getUserSchools",
        params,
        response: { 200: userSchoolsResponseSchema, ...accountErrors },
      },
    },
    async (request) => ({ data: await users.getUserSchools(db, request.user, request.params.id) }),
  );

  app.put(
    "/users/:id/schools",
    {
      onRequest,
      schema: {
        tags,
        summary: "Set a district user's schools",
        operationId: "setUserSchools",
        params,
        body: setUserSchoolsRequestSchema,
        response: { 200: setUserSchoolsResponseSchema, ...accountErrors },
      },
    },
    async (request) => users.setUserSchools(ctx, request.user, request.params.id, request.body.schoolIds),
  );

  app.get(
    "/users/:id/login-logs",
    {
      onRequest,
      schema: {
        tags,
        summary: "A user's sign-in history, newest first",
        operationId: "listLoginLogs",
        params,
        querystring: loginLogsQuerySchema,
        response: { 200: loginLogsResponseSchema, ...accountErrors },
      },
    },
    async (request) => users.getLoginLogs(db, request.user, request.params.id, request.query),
  );
};
