import { type DashboardFilter, teamsResponseSchema } from "@tally/contract";
import { z } from "zod";
import type { DbExecutor } from "../../db/executor.js";
import { type EncodedReply, encodedSize, encodeReply } from "../../lib/encoded-reply.js";
import { resolveScope, type ScopeSubject } from "../scope/scope.js";
import * as repo from "./teams.repository.js";

// GET /teams as the JSON text it is sent as, kept per database and reused while nothing it is
// made of changed. An admin's list is every team (4,000 at 50,000 students, 1.8 MB): building it
// cost 28-57 ms of CPU on the embedded engine however the query was written (issue 41), and
// zod and JSON.stringify 10 ms more; the dashboard asks for it on every visit.
//
// The key is what decides the answer: team_list_version (teams, schools and cohorts as written),
// the caller's scope (schools, visibility, demo) and the cohort asked for. The version is read
// before the list, so a list kept under a number is never older than that number.
//
// Kept as bytes, and brotli- and gzip-compressed as well, made once when kept: turning 1.8 MB
// of text into a Buffer on each request, and compressing it for each browser, cost more than
// reading the list had (issue 41).

/** Kept replies' total size in bytes, every encoding counted, before the least recently used goes. */
const MAX_KEPT_BYTES = 10_000_000;

const keptByDatabase = new WeakMap<DbExecutor, Map<string, EncodedReply>>();

function keptFor(db: DbExecutor): Map<string, EncodedReply> {
  let kept = keptByDatabase.get(db);
  if (!kept) {
    kept = new Map();
    keptByDatabase.set(db, kept);
  }
  return kept;
}

/** The reply's JSON, as the route's serializer would write it (the schema's encoding, then JSON.stringify), in each encoding. */
export async function teamListReply(db: DbExecutor, user: ScopeSubject, filter: DashboardFilter): Promise<EncodedReply> {
  const scope = await resolveScope(db, user, filter);
  const key = `${await repo.teamListVersion(db)}|${filter.cohortId ?? ""}|${JSON.stringify(scope)}`;
  const kept = keptFor(db);
  const hit = kept.get(key);
  if (hit !== undefined) {
    kept.delete(key);
    kept.set(key, hit);
    return hit;
  }
  const data = await repo.listTeams(db, scope, { cohortId: filter.cohortId });
  const encoded = await encodeReply(JSON.stringify(z.encode(teamsResponseSchema, { data })));
  kept.set(key, encoded);
  let total = 0;
  for (const value of kept.values()) total += encodedSize(value);
  for (const [oldest, value] of kept) {
    if (total <= MAX_KEPT_BYTES || oldest === key) break;
    kept.delete(oldest);
    total -= encodedSize(value);
  }
  return encoded;
}
