import { type Kysely, type Migration, Migrator, sql } from "kysely";
import { migrate001 } from "./migrations/001-initial-schema.js";
import { migrate002 } from "./migrations/002-dashboard-indexes.js";
import { migrate003 } from "./migrations/003-dashboard-rollups.js";
import { migrate004 } from "./migrations/004-team-count-rollup.js";
import { migrate005 } from "./migrations/005-login-throttle.js";
import { migrate006 } from "./migrations/006-outbox-withhold-links.js";
import { migrate007 } from "./migrations/007-refresh-token-families.js";
import { migrate008 } from "./migrations/008-audit-log.js";
import { migrate009 } from "./migrations/009-import-batches.js";
import { migrate010 } from "./migrations/010-flag-runs.js";
import { migrate011 } from "./migrations/011-deferred-rollups.js";
import { migrate012 } from "./migrations/012-deferred-rollups-on-update.js";
import { migrate013 } from "./migrations/013-notifications.js";
import { migrate014 } from "./migrations/014-audit-client-address.js";
import { migrate015 } from "./migrations/015-data-version.js";
import { migrate016 } from "./migrations/016-triggers-always.js";
import { migrate017 } from "./migrations/017-download-log.js";
import { migrate018 } from "./migrations/018-student-name-search.js";
import { migrate020 } from "./migrations/020-oidc-sign-in.js";
import { migrate019 } from "./migrations/019-second-factor.js";
import { migrate021 } from "./migrations/021-access-log.js";
import { migrate022 } from "./migrations/022-passkeys.js";
import { migrate023 } from "./migrations/023-retention.js";
import { migrate024 } from "./migrations/024-sign-in-factors.js";
import { migrate025 } from "./migrations/025-excused-attendance.js";
import { migrate026 } from "./migrations/026-alerts.js";
import { migrate027 } from "./migrations/027-alerts-school.js";
import { migrate028 } from "./migrations/028-crm-enrolled-sessions.js";
import { migrate029 } from "./migrations/029-alerts-live-count.js";
import { migrate030 } from "./migrations/030-sso-subject-link.js";
import { migrate031 } from "./migrations/031-dashboard-previous-week-and-teams.js";
import { migrate032 } from "./migrations/032-export-claims.js";
import type { Database } from "./schema.js";

// Listed in code rather than read from a folder, so the build output needs no file scan.
const migrations: Record<string, Migration> = {
  "001-initial-schema": { up: migrate001 },
  "002-dashboard-indexes": { up: migrate002 },
  "003-dashboard-rollups": { up: migrate003 },
  "004-team-count-rollup": { up: migrate004 },
  "005-login-throttle": { up: migrate005 },
  "006-outbox-withhold-links": { up: migrate006 },
  "007-refresh-token-families": { up: migrate007 },
  "008-audit-log": { up: migrate008 },
  "009-import-batches": { up: migrate009 },
  "010-flag-runs": { up: migrate010 },
  "011-deferred-rollups": { up: migrate011 },
  "012-deferred-rollups-on-update": { up: migrate012 },
  "013-notifications": { up: migrate013 },
  "014-audit-client-address": { up: migrate014 },
  "015-data-version": { up: migrate015 },
  "016-triggers-always": { up: migrate016 },
  "017-download-log": { up: migrate017 },
  "018-student-name-search": { up: migrate018 },
  "019-second-factor": { up: migrate019 },
  "020-oidc-sign-in": { up: migrate020 },
  "021-access-log": { up: migrate021 },
  "022-passkeys": { up: migrate022 },
  "023-retention": { up: migrate023 },
  "024-sign-in-factors": { up: migrate024 },
  "025-excused-attendance": { up: migrate025 },
  "026-alerts": { up: migrate026 },
  "027-alerts-school": { up: migrate027 },
  "028-crm-enrolled-sessions": { up: migrate028 },
  "029-alerts-live-count": { up: migrate029 },
  "030-sso-subject-link": { up: migrate030 },
  "031-dashboard-previous-week-and-teams": { up: migrate031 },
  "032-export-claims": { up: migrate032 },
};

/** Applies every pending migration; safe to call from several instances at once. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one; without
  // this, a sibling schema's tables (parallel PostgreSQL test suites) make it skip creating ours.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: rows[0]?.schema,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** The names of every migration this build knows, oldest first (the readiness check compares). */
export function knownMigrations(): string[] {
  return Object.keys(migrations).sort();
}

/**
 * The migrations applied to this database, oldest first, read from Kysely's own bookkeeping
 * table in the connection's schema (search_path). A database never migrated has no such table
 * (42P01): the readiness check tells that apart.
 */
export async function appliedMigrations(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((r) => r.name);
}
