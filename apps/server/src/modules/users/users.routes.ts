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

const errors = errorResponses(400, 401, 403, 404, 409, 502);

export const usersRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const db = ctx.database.db;
  // onRequest: other roles are refused before their body is even parsed.
  const onRequest = app.requireRoles(...USER_MANAGER_ROLES);
  const tags = ["users"];
  const params = userIdParamSchema;

  app.get(
    "/users",
    { onRequest, schema: { tags, response: { 200: usersListResponseSchema, ...errors } } },
    async () => ({ data: await users.listUsers(db) }),
  );

  app.put(
    "/users/:id",
    { onRequest, schema: { tags, params, body: updateUserRequestSchema, response: { 200: userMutationResponseSchema, ...errors } } },
    async (request) => ({
      message: MESSAGES.userUpdated,
      user: await users.updateUser(ctx, request.user, request.params.id, request.body, request.log),
    }),
  );

  const deactivate = {
    onRequest,
    schema: { tags, params, response: { 200: userMutationResponseSchema, ...errors } },
  };
  app.delete("/users/:id", deactivate, async (request) => users.deactivateUser(ctx, request.user, request.params.id));
  app.post("/users/:id/deactivate", deactivate, async (request) =>
    users.deactivateUser(ctx, request.user, request.params.id),
  );

  app.post(
    "/users/:id/reactivate",
    { onRequest, schema: { tags, params, response: { 200: userMutationResponseSchema, ...errors } } },
    async (request) => users.reactivateUser(ctx, request.user, request.params.id, request.log),
  );

  app.post(
    "/users/:id/reset-password",
    {
      onRequest,
      schema: {
        tags,
        params,
        // Optional body: no password means "e-mail a reset link".
        body: adminResetPasswordRequestSchema.nullish(),
        response: { 200: adminResetPasswordResponseSchema, ...errors },
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
      schema: { tags, params, body: setUserSchoolRequestSchema, response: { 200: userMutationResponseSchema, ...errors } },
    },
    async (request) => users.setUserSchool(ctx, request.user, request.params.id, request.body.school_id),
  );

  app.get(
    "/users/:id/schools",
    { onRequest, schema: { tags, params, response: { 200: userSchoolsResponseSchema, ...errors } } },
    async (request) => ({ data: await users.getUserSchools(db, request.user, request.params.id) }),
  );

  app.put(
    "/users/:id/schools",
    {
      onRequest,
      schema: { tags, params, body: setUserSchoolsRequestSchema, response: { 200: setUserSchoolsResponseSchema, ...errors } },
    },
    async (request) => users.setUserSchools(ctx, request.user, request.params.id, request.body.schoolIds),
  );

  app.get(
    "/users/:id/login-logs",
    {
      onRequest,
      schema: { tags, params, querystring: loginLogsQuerySchema, response: { 200: loginLogsResponseSchema, ...errors } },
    },
    async (request) => users.getLoginLogs(db, request.user, request.params.id, request.query),
  );
};
