import type { NotReadyResponse, ReadyResponse } from "@tally/contract";
import type { DatabaseHandle } from "../../db/connection.js";
import { appliedMigrations, knownMigrations } from "../../db/migrate.js";

/** A database that has not answered by then counts as unreachable: a proxy's probe must not hang. */
export const READINESS_TIMEOUT_MS = 3_000;

export type Readiness =
  | { ready: true; body: ReadyResponse }
  | { ready: false; body: NotReadyResponse; cause?: unknown };

/**
 * Whether this instance should receive traffic: the database answers and has every migration
 * this build knows. (Liveness, GET /health-check, only says the process answers.)
 */
export async function checkReadiness(database: DatabaseHandle, timeoutMs = READINESS_TIMEOUT_MS): Promise<Readiness> {
  const known = knownMigrations();
  let applied: string[];
  try {
    applied = await withTimeout(appliedMigrations(database.db), timeoutMs);
  } catch (cause) {
    if (isMissingTable(cause)) return pending(database, [], known, known);
    return {
      ready: false,
      cause,
      body: {
        status: "not_ready",
        database: database.engine,
        reason: "database_unreachable",
        message: "The database does not answer.",
      },
    };
  }
  const have = new Set(applied);
  const missing = known.filter((name) => !have.has(name));
  if (missing.length > 0) return pending(database, applied, known, missing);
  // Every migration this build knows is there; the database may have newer ones (a newer
  // build migrated it, then this one was started): the answer names both.
  return {
    ready: true,
    body: {
      status: "ready",
      database: database.engine,
      migrations: { applied: applied.length, latest: applied.at(-1) ?? "", ...expectedIfOther(applied, known) },
    },
  };
}

/** The newest migration this build knows, named when the database's newest is another. */
function expectedIfOther(applied: string[], known: string[]): { expected?: string } {
  const expected = known.at(-1);
  return expected !== undefined && expected !== applied.at(-1) ? { expected } : {};
}

function pending(database: DatabaseHandle, applied: string[], known: string[], missing: string[]): Readiness {
  return {
    ready: false,
    body: {
      status: "not_ready",
      database: database.engine,
      reason: "migrations_pending",
      message: `The database lacks ${missing.length} migration(s); restart the server or run \`npm run cli -- migrate\`.`,
      migrations: { applied: applied.length, latest: applied.at(-1) ?? null, ...expectedIfOther(applied, known), pending: missing },
    },
  };
}

/** 42P01: undefined_table — a database nothing was ever migrated in. */
function isMissingTable(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === "42P01";
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
