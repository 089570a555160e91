import type { Role } from "@tally/contract";

/**
 * Who may read the outbox: super admins only. An admin may send other people reset links,
 * and must not be able to read what was sent (the links are withheld anyway).
 */
export const OUTBOX_READER_ROLES = ["super_admin"] as const satisfies readonly Role[];
