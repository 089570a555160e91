import {
  ADMIN_ROLES,
  digestPreviewQuerySchema,
  digestPreviewSchema,
  digestProfileReplySchema,
  digestProfileSchema,
  digestTestResultSchema,
  digestUnsubscribeQuerySchema,
} from "@tally/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { badRequest } from "../../lib/errors.js";
import { mediaResponse } from "../../lib/media-response.js";
import { startDigestScheduler } from "./digest-scheduler.js";
import { unsubscribePage } from "./unsubscribe-page.js";
import { UNSUBSCRIBE_LINK_DAYS } from "./unsubscribe-token.js";
import { previewDigest, readDigestEnabled, sendTestDigest, setDigestEnabled, unsubscribeTarget } from "./digests.service.js";

const pageSchema = mediaResponse("text/html", "A small page saying what the link does or did");

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.status(status).type("text/html; charset=utf-8").header("Cache-Control", "no-store").send(Buffer.from(html));
}

const INVALID_LINK = "token: this is not a valid unsubscribe link";
const EXPIRED_LINK = `token: this unsubscribe link has expired (links work for ${UNSUBSCRIBE_LINK_DAYS} days); turn the weekly digest off on your account page`;

/** A link that is no valid one (or has expired): a page for a browser, the usual 400 naming the field for anything else. */
function invalidLink(request: FastifyRequest, reply: FastifyReply, expired: boolean, appUrl: string) {
  if ((request.headers.accept ?? "").includes("text/html")) {
    return sendPage(reply, 400, expired ? unsubscribePage("expired", { appUrl }) : unsubscribePage("invalid"));
  }
  const message = expired ? EXPIRED_LINK : INVALID_LINK;
  throw badRequest(message, [{ path: "token", message }]);
}

/**
 * Issue 30, the weekly digest: the opt-out (profile and one-click link), the admin's preview
 * and test send. The scheduler starts with the app and stops on close.
 */
export const digestsRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const scheduler = startDigestScheduler(ctx, app.log);
  app.addHook("onClose", () => scheduler.stop());
  // RFC 8058: a mail client's one-click unsubscribe POSTs "List-Unsubscribe=One-Click" as a
  // form; nothing in it is needed (the signed link says who), so it is read as text and left.
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 1024 }, (_request, body, done) =>
    done(null, body),
  );
  const tags = ["digests"];
  const admin = app.requireRoles(...ADMIN_ROLES);

  app.get(
    "/profile/digest",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Whether the signed-in user gets the weekly digest",
        operationId: "getDigestSetting",
        response: { 200: digestProfileReplySchema, ...errorResponses(401) },
      },
    },
    async (request) => ({ enabled: await readDigestEnabled(ctx, request.user.id) }),
  );
  app.put(
    "/profile/digest",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Turn the signed-in user's weekly digest on or off",
        operationId: "setDigestSetting",
        body: digestProfileSchema,
        response: { 200: digestProfileReplySchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ enabled: await setDigestEnabled(ctx, request.user.id, request.body.enabled, "profile") }),
  );
  app.get(
    "/digests/preview",
    {
      onRequest: admin,
      schema: {
        tags,
        summary: "A user's next weekly digest as it would go out now",
        operationId: "previewDigest",
        querystring: digestPreviewQuerySchema,
        response: { 200: digestPreviewSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => previewDigest(ctx, request.query.userId),
  );
  app.post(
    "/digests/test",
    {
      onRequest: admin,
      schema: {
        tags,
        summary: "Send the signed-in admin their own next digest now (not counted as the week's)",
        operationId: "sendTestDigest",
        response: { 200: digestTestResultSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => sendTestDigest(ctx, request.user.id),
  );
  app.get(
    "/digests/unsubscribe",
    {
      schema: {
        tags,
        summary: "The digest's unsubscribe link: a page asking to confirm (no sign-in; the signed link says who)",
        operationId: "showDigestUnsubscribe",
        querystring: digestUnsubscribeQuerySchema,
        // 400: the usual error naming the token; a browser (Accept: text/html) gets a page saying so.
        response: { 200: pageSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const user = await unsubscribeTarget(ctx, request.query.token);
      if (user === null || user === "expired") return invalidLink(request, reply, user === "expired", ctx.config.appUrl);
      return sendPage(reply, 200, unsubscribePage(user.digest_enabled ? "confirm" : "already", { token: request.query.token }));
    },
  );
  app.post(
    "/digests/unsubscribe",
    {
      schema: {
        tags,
        summary: "Unsubscribe from the weekly digest (one click, RFC 8058; no sign-in: the signed link says who)",
        operationId: "digestUnsubscribe",
        querystring: digestUnsubscribeQuerySchema,
        // 400: the usual error naming the token; a browser (Accept: text/html) gets a page saying so.
        response: { 200: pageSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const user = await unsubscribeTarget(ctx, request.query.token);
      if (user === null || user === "expired") return invalidLink(request, reply, user === "expired", ctx.config.appUrl);
      await setDigestEnabled(ctx, user.id, false, "unsubscribe_link");
      return sendPage(reply, 200, unsubscribePage("done"));
    },
  );
};
