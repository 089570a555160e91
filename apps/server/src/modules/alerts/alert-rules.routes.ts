import { ADMIN_ROLES, alertRulesBodySchema, alertRulesPreviewSchema, alertRulesQuerySchema, alertRulesSchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { previewAlertCounts } from "./alert-evaluation.service.js";
import { evaluateAlertsAndAnnounce } from "./alerts-live.service.js";
import { documentFromBody, getAlertRules, readAlertRules, saveAlertRules } from "./alert-rules.service.js";

// Issue 30: the programme's alert rules (Admin Settings → Alert Rules); every signed-in user may
// read the rules that apply, admins set them and preview what they would raise.
export const alertRulesRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const tags = ["alerts"];
  app.get(
    "/alert-rules",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The alert rules that apply (a cohort's overrides resolved with cohortId)",
        operationId: "getAlertRules",
        querystring: alertRulesQuerySchema,
        response: { 200: alertRulesSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => getAlertRules(ctx.database.db, request.query.cohortId),
  );
  app.put(
    "/alert-rules",
    {
      onRequest: app.requireRoles(...ADMIN_ROLES),
      schema: {
        tags,
        summary: "Save the alert rules (a rule left out keeps its default), then evaluate every cohort",
        operationId: "saveAlertRules",
        body: alertRulesBodySchema,
        response: { 200: alertRulesSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const saved = await saveAlertRules(ctx.database.db, request.user.id, request.body, ctx.clock.now());
      await evaluateAlertsAndAnnounce(ctx, {});
      return { ...saved, cohortId: null };
    },
  );
  app.post(
    "/alert-rules/preview",
    {
      onRequest: app.requireRoles(...ADMIN_ROLES),
      schema: {
        tags,
        summary: "How many students each rule would raise now (writes nothing)",
        operationId: "previewAlertRules",
        body: alertRulesBodySchema,
        response: { 200: alertRulesPreviewSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { db } = ctx.database;
      const doc = await documentFromBody(db, request.body, await readAlertRules(db));
      return { counts: await previewAlertCounts(db, doc, ctx.clock.now()) };
    },
  );
};
