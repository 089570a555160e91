import { z } from "zod";

// Issue 32 "Retention": remove students whose last cohort ended more than retentionYears ago.
// The admins preview it (GET /settings/privacy/retention-preview) before switching it on; the
// server runs it nightly at RETENTION_RUN_AT, or now (POST /settings/privacy/retention-run).

/** The years Admin Settings suggests when switching retention on. */
export const RETENTION_SUGGESTED_YEARS = 3;
/** When the nightly run starts, server local time. */
export const RETENTION_RUN_AT = { hour: 2, minute: 30 } as const;
/** At most this many names in a preview (the count is always whole). */
export const RETENTION_PREVIEW_NAMES = 1000;

const yearsMessage = "years must be a whole number of years from 1 to 50";
export const retentionPreviewQuerySchema = z.object({
  years: z.coerce
    .number({ error: yearsMessage })
    .int(yearsMessage)
    .min(1, yearsMessage)
    .max(50, yearsMessage)
    .optional()
    .describe("preview this many years instead of the saved retentionYears (before switching it on)"),
});
export type RetentionPreviewQuery = z.infer<typeof retentionPreviewQuerySchema>;

export const retentionPreviewSchema = z.object({
  students: z.number().int().nonnegative().describe("how many students the run would remove now"),
  names: z.array(z.string()).describe(`their names, "First Last", by last name (at most ${RETENTION_PREVIEW_NAMES})`),
});
export type RetentionPreview = z.infer<typeof retentionPreviewSchema>;

export const RETENTION_MESSAGES = {
  off: "Retention is off: save a number of years first, or preview with ?years=",
} as const;
