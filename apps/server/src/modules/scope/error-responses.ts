import { errorResponses } from "../../lib/error-responses.js";

/** Error replies every scoped data route can give. */
export const scopedErrorResponses = errorResponses(400, 401, 403, 404);
