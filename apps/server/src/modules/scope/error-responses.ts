import { errorBodySchema } from "@tally/contract";

/** Error replies every scoped data route can give. */
export const scopedErrorResponses = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
} as const;
