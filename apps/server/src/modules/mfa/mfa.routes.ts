import { ADMIN_ROLES, idParamSchema, messageSchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { forbidden } from "../../lib/errors.js";
import { requireAccount } from "../users/accounts.service.js";
import { assertCanManage } from "../users/users.policy.js";
import { resetSecondFactor } from "./mfa.service.js";

/** An administrator's side of the second factor. */
export const mfaAdminRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.post(
    "/users/:id/mfa/reset",
    {
      onRequest: app.requireRoles(...ADMIN_ROLES),
      schema: {
        tags: ["users"],
        summary: "Reset a user's two-step sign-in (authenticator app and recovery codes); the user is told by e-mail",
        operationId: "resetUserSecondFactor",
        params: idParamSchema,
        response: { 200: messageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const target = await requireAccount(ctx.database.db, request.params.id);
      // Never a super admin's unless a super admin (the shared rule of every account action).
      assertCanManage(request.user, target);
      // One's own factor is removed with a current code from the profile, never around it.
      if (target.id === request.user.id) throw forbidden("Turn off your own two-step sign-in from your profile.");
      await resetSecondFactor(ctx, request.user.id, target, request.log);
      return { message: "Two-step sign-in has been reset" };
    },
  );
};
