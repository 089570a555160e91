import { NOTIFICATION_LIMITS, notificationsPollSchema, notificationTokenQuerySchema } from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { AppError } from "../../lib/errors.js";
import { mediaResponse } from "../../lib/media-response.js";
import { resolveStudentReadScope } from "../scope/scope.js";
import { EventStream } from "./event-stream.js";
import { NotificationHub } from "./notification-hub.js";
import { clientAddressKey } from "../../lib/client-address-key.js";
import { liveSince, parseLastEventId } from "./notifications.policy.js";
import { notificationsAfter, pollNotifications } from "./notifications.service.js";

const errors = errorResponses(400, 401, 503);
const streamErrors = errorResponses(400, 401, 429, 503);
// The reply is written by hand (reply.hijack); this only describes it in the OpenAPI document.
const eventStreamSchema = mediaResponse("text/event-stream", "`id: <id>\\ndata: <notification JSON>\\n\\n` per notification");

export interface NotificationsRoutesOptions {
  ctx: ServerContext;
  /** How often every open stream gets a heartbeat comment (tests make it short). */
  heartbeatMs?: number;
}

/**
 * The live connection (spec §4, §7): GET /notifications is an event stream, GET
 * /notifications-poll the same events for a client that fell back to polling. Both take the
 * access token in the query string (EventSource cannot send headers), checked by the
 * authenticateQueryToken guard (plugins/auth.ts); the request log drops it.
 */
export const notificationsRoutes: FastifyPluginAsyncZod<NotificationsRoutesOptions> = async (app, { ctx, heartbeatMs }) => {
  const hub = new NotificationHub(ctx, heartbeatMs ?? NOTIFICATION_LIMITS.heartbeatMs, app.log);
  await hub.start();
  // preClose runs before the server stops waiting for open connections: ending the streams
  // here is what lets app.close() (SIGTERM) finish, and sends their clients elsewhere.
  app.addHook("preClose", async () => hub.endAll());
  app.addHook("onClose", async () => hub.stop());
  const tags = ["notifications"];
  const db = ctx.database.db;

  app.get(
    "/notifications",
    {
      onRequest: app.authenticateQueryToken,
      schema: {
        tags,
        summary: "Live notifications, as an event stream",
        operationId: "streamNotifications",
        querystring: notificationTokenQuerySchema,
        response: { 200: eventStreamSchema, ...streamErrors },
      },
    },
    async (request, reply) => {
      if (!hub.accepting) throw shuttingDown();
      const session = request.tokenSession;
      const lastEventId = parseLastEventId(request.headers["last-event-id"]);
      const now = ctx.clock.now();

      if (!session.live) {
        // A client reconnecting after missing the FORCE_LOGOUT that ended its sign-in is given
        // it (then the stream ends); anyone else gets the guard's 401, and no stream.
        const missed =
          lastEventId === undefined ? [] : await notificationsAfter(db, session.userId, lastEventId, session.issuedAt, now, true);
        if (missed.length === 0) throw session.refusal;
        const stream = new EventStream(reply.raw, () => {});
        reply.hijack();
        stream.open(reply.getHeaders());
        stream.release(missed);
        stream.end();
        return reply;
      }

      // The schools whose alerts concern this stream: those whose students the user may open
      // (the demo school too when the demo is open to them), read once as the stream opens.
      const { schools } = await resolveStudentReadScope(db, session.user);
      let leave: (() => void) | undefined;
      const stream = new EventStream(reply.raw, () => leave?.());
      // The client left while its token was checked: there is nothing to hold, nor to displace.
      if (stream.isEnded) return reply.hijack();
      // Past a cap this throws the 429 while the reply is still Fastify's to send.
      leave = hub.add(
        { userId: session.userId, sessionId: session.sessionId, address: clientAddressKey(request.ip), expiresAt: session.expiresAt, schools },
        stream,
      );
      reply.hijack();
      stream.open(reply.getHeaders());
      stream.sendNow({ id: 0, type: "CONNECTED", createdAt: now.toISOString() });
      // Joined (above) before the replay is read, so nothing committed in between is lost; what
      // arrives meanwhile is held and sent in order after the replay.
      try {
        const missed =
          lastEventId === undefined ? [] : await notificationsAfter(db, session.userId, lastEventId, liveSince(session.issuedAt), now);
        stream.release(missed);
      } catch (err) {
        request.log.error({ err }, "replaying missed notifications failed");
        stream.sendNow({ id: 0, type: "ERROR", message: "Notifications are unavailable. Reconnecting…", createdAt: now.toISOString() });
        stream.end();
      }
      return reply;
    },
  );

  app.get(
    "/notifications-poll",
    {
      onRequest: app.authenticateQueryToken,
      schema: {
        tags,
        summary: "Notifications since the last poll, for a client that cannot stream",
        operationId: "pollNotifications",
        querystring: notificationTokenQuerySchema,
        response: { 200: notificationsPollSchema, ...errors },
      },
    },
    async (request) => {
      const session = request.tokenSession;
      const now = ctx.clock.now();
      if (session.live) return { data: await pollNotifications(db, session.userId, liveSince(session.issuedAt), now) };
      // As on the stream: a sign-in that was ended is told why once more, by every tab that asks.
      const data = await pollNotifications(db, session.userId, session.issuedAt, now, { ignoreCursor: true, onlyForceLogout: true });
      if (data.length === 0) throw session.refusal;
      return { data };
    },
  );
};

const shuttingDown = () => new AppError(503, "INTERNAL", "The server is restarting. Please try again.");
