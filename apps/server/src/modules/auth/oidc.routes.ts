import {
  authProvidersResponseSchema,
  loginResponseSchema,
  oidcCallbackQuerySchema,
  oidcExchangeRequestSchema,
  oidcProviderParamsSchema,
  redirectResponseSchema,
} from "@tally/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../../context.js";
import { errorResponses } from "../../lib/error-responses.js";
import { clientAddressOf } from "../../lib/forwarded-address.js";
import { BROWSER_COOKIE, browserCookie, FLOW_COOKIE, flowCookie, readCookie } from "./oidc-flow-cookie.js";
import { exchangeSsoCode, finishSso, startSso } from "./oidc.service.js";

// Single sign-on's routes (docs/sso.md). Start and callback are browser navigations, so they
// answer with redirects, never JSON; a refusal is a redirect to the web app's /sso page.

export const oidcRoutes: FastifyPluginAsyncZod<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const tags = ["auth"];
  // The cookie is Secure whenever Tally is served over https (OIDC_ALLOW_HTTP does not change that).
  const secureCookie = ctx.config.appUrl.startsWith("https:");

  app.get(
    "/auth/providers",
    {
      schema: {
        tags,
        summary: "The single sign-on providers, for the sign-in page's buttons",
        operationId: "listAuthProviders",
        response: { 200: authProvidersResponseSchema },
      },
    },
    async () => ctx.config.oidcProviders.map((p) => ({ id: p.id, name: p.name })),
  );

  app.get(
    "/auth/oidc/:id/start",
    {
      schema: {
        tags,
        summary: "Send the browser to the provider's sign-in",
        operationId: "startSingleSignOn",
        params: oidcProviderParamsSchema,
        response: { 302: redirectResponseSchema, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { location, cookies } = await startSso(ctx, request.params.id, request.log);
      if (cookies) reply.header("set-cookie", [flowCookie(cookies.sealedFlow, secureCookie), browserCookie(cookies.browserKey, secureCookie)]);
      reply.header("cache-control", "no-store");
      return reply.redirect(location, 302);
    },
  );

  app.get(
    "/auth/oidc/:id/callback",
    {
      schema: {
        tags,
        summary: "The provider's redirect back (registered at the provider as {APP_URL}/api/auth/oidc/{id}/callback)",
        operationId: "finishSingleSignOn",
        params: oidcProviderParamsSchema,
        querystring: oidcCallbackQuerySchema,
        response: { 303: redirectResponseSchema, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const location = await finishSso(
        ctx,
        request.params.id,
        request.url,
        readCookie(request.headers.cookie, FLOW_COOKIE),
        { ipAddress: clientAddressOf(request), userAgent: request.headers["user-agent"] ?? null },
        request.log,
      );
      // The flow is spent whatever the outcome: a second visit of this URL finds no cookie.
      reply.header("set-cookie", flowCookie("", secureCookie, 0));
      reply.header("cache-control", "no-store");
      reply.header("referrer-policy", "no-referrer");
      return reply.redirect(location, 303);
    },
  );

  app.post(
    "/auth/oidc/exchange",
    {
      schema: {
        tags,
        summary:
          "Exchange the one-time code of a single sign-on (only in the browser that started it: its tally_sso_browser cookie) for the access and refresh token, or, for an account with a second factor when the provider's amr showed one factor, a challenge (as POST /auth/login)",
        operationId: "exchangeSingleSignOnCode",
        body: oidcExchangeRequestSchema,
        response: { 200: loginResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const answer = await exchangeSsoCode(ctx, request.body.code, readCookie(request.headers.cookie, BROWSER_COOKIE), {
        ipAddress: clientAddressOf(request),
        userAgent: request.headers["user-agent"] ?? null,
      });
      // The key has done its work: the next sign-in gets a new one.
      reply.header("set-cookie", browserCookie("", secureCookie, 0));
      return answer;
    },
  );
};
