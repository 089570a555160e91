import multipart from "@fastify/multipart";
import { IMPORT_LIMITS } from "@tally/contract";
import { errorCodes, type FastifyInstance, type FastifyRequest } from "fastify";
import fp from "fastify-plugin";

/** The route takes a multipart form: its schema says so (`consumes`), as the three upload routes' do. */
function takesForm(request: FastifyRequest): boolean {
  return request.routeOptions.schema?.consumes?.includes("multipart/form-data") === true;
}

/**
 * Multipart forms, registered once for the upload routes. Each upload sets its own limits as it
 * reads its form (lib/report-upload.ts); these are the ceilings, should a route forget. A route
 * that takes no form answers a multipart body with Fastify's own 415, as before the parser
 * existed: it never reaches a handler as an empty body.
 */
export const multipartPlugin = fp(async (app: FastifyInstance) => {
  await app.register(multipart, { limits: { fileSize: IMPORT_LIMITS.maxFileBytes, files: 3, fields: 12, parts: 15 } });
  app.addHook("preParsing", (request, _reply, payload, done) => {
    const type = request.headers["content-type"];
    const refused =
      type !== undefined &&
      /^\s*multipart\/form-data\b/i.test(type) &&
      request.method !== "GET" &&
      request.method !== "HEAD" &&
      !request.is404 &&
      !takesForm(request);
    if (refused) done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE());
    else done(null, payload);
  });
});
