import { testConfig } from "@tally/server/config";
import type { ServerContext } from "@tally/server/context";
import type { DatabaseHandle } from "@tally/server/db/connection";
import { listenForMail } from "@tally/server/dev/mail-catcher";
import { manualClock } from "@tally/server/lib/clock";
import { createMailer } from "@tally/server/lib/mailer";
import { currentDigestWeek, runDigestWeek } from "@tally/server/modules/digests/digests.service";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { sql } from "kysely";
import { mb } from "./bench-app.js";
import type { BenchWorld } from "./dataset.js";
import { watchEventLoop } from "./stats.js";

/** Issue 30: the digest run for 500 users against a local SMTP server, memory flat. */
// "Flat" is judged on what stays after a full collection: the heap between two GCs, before and
// after the run (its peak is garbage the collector had not yet taken, and says little).
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;
export const DIGEST_TARGETS = { users: 500, ms: 30_000 } as const;
const PREFIX = "bench-digest-";

export interface DigestBenchResult {
  users: number;
  sent: number;
  empty: number;
  failed: number;
  ms: number;
  loopBlockedMs: number;
  mails: number;
  mailMb: number;
  rssMb: { before: number; peak: number; after: number };
  heapMb: { before: number; peak: number; after: number };
  /** The heap after a full collection, before and after the run: what the run kept. */
  heapAfterGcMb: { before: number; after: number };
}

/**
 * The bench's digest readers: 500 users (school users spread over the set's schools, every
 * tenth a district user of the world's ten schools, every fiftieth an admin), made once.
 */
async function ensureDigestUsers(database: DatabaseHandle, world: BenchWorld): Promise<number[]> {
  const db = database.db;
  const have = await db.selectFrom("users").select(["id", "username"]).where("username", "like", `${PREFIX}%`).orderBy("id").execute();
  if (have.length >= DIGEST_TARGETS.users) return have.map((u) => u.id);
  const made = new Set(have.map((u) => u.username));
  const schools = (await db.selectFrom("schools").select("id").orderBy("id").execute()).map((s) => s.id);
  const rows = Array.from({ length: DIGEST_TARGETS.users }, (_, i) => {
    const role = i % 50 === 49 ? ("admin" as const) : i % 10 === 9 ? ("district_user" as const) : ("school_user" as const);
    return {
      username: `${PREFIX}${String(i + 1).padStart(3, "0")}`,
      email: `${PREFIX}${i + 1}@bench.tally.test`,
      // Never signed in with: the digest only reads the account.
      password_hash: "!",
      role,
      school_id: role === "school_user" ? (schools[i % schools.length] ?? null) : null,
      is_active: true,
      email_verified: true,
    };
  });
  const added = await db
    .insertInto("users")
    .values(rows.filter((r) => !made.has(r.username)))
    .returning(["id", "role"])
    .execute();
  const districts = added.filter((u) => u.role === "district_user");
  if (districts.length > 0) {
    await db
      .insertInto("user_schools")
      .values(districts.flatMap((u) => world.schoolIds.map((school_id) => ({ user_id: u.id, school_id }))))
      .execute();
  }
  const all = await db.selectFrom("users").select("id").where("username", "like", `${PREFIX}%`).orderBy("id").execute();
  return all.map((u) => u.id);
}

/**
 * The week's digest run for the bench's 500 digest readers (everyone else's digest switched
 * off for the run, as it was), sent over SMTP to a local server (the `smtp-server` package, in
 * this process: it counts the mails and drops them). The clock is the week the alerts were
 * opened in, so every digest lists new alerts. Memory sampled every 100 ms.
 */
export async function runDigestBench(database: DatabaseHandle, world: BenchWorld, now: Date, log: (line: string) => void): Promise<DigestBenchResult> {
  const db = database.db;
  const ids = await ensureDigestUsers(database, world);
  const others = await db
    .updateTable("users")
    .set({ digest_enabled: false })
    .where("digest_enabled", "=", true)
    .where("username", "not like", `${PREFIX}%`)
    .returning("id")
    .execute();
  await db.updateTable("users").set({ digest_enabled: true }).where("id", "in", ids).execute();
  await db.deleteFrom("digest_deliveries").where("user_id", "in", ids).execute();
  await sql`analyze alerts`.execute(db);

  let mails = 0;
  let bytes = 0;
  const smtp = await listenForMail(0, (raw) => {
    mails++;
    bytes += raw.length;
  });
  const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: "Tally <digest@bench.tally.test>", log: { info: () => {} } });
  const ctx: ServerContext = {
    config: testConfig({ databaseUrl: database.engine === "postgres" ? "postgres://bench" : undefined }),
    database,
    mailer,
    clock: manualClock(new Date(now.getTime() + 3_600_000)),
  };
  try {
    const week = await currentDigestWeek(ctx);
    collect();
    const before = process.memoryUsage();
    const peak = { rss: before.rss, heap: before.heapUsed };
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peak.rss = Math.max(peak.rss, m.rss);
      peak.heap = Math.max(peak.heap, m.heapUsed);
    }, 100);
    const loop = watchEventLoop();
    const t0 = performance.now();
    const r = await runDigestWeek(ctx, week);
    const ms = performance.now() - t0;
    const loopBlockedMs = loop.stop().blockedMs;
    clearInterval(sampler);
    const after = process.memoryUsage();
    collect();
    const afterGc = process.memoryUsage();
    const result: DigestBenchResult = {
      users: ids.length,
      ...r,
      ms,
      loopBlockedMs,
      mails,
      mailMb: mb(bytes),
      rssMb: { before: mb(before.rss), peak: mb(peak.rss), after: mb(after.rss) },
      heapMb: { before: mb(before.heapUsed), peak: mb(peak.heap), after: mb(after.heapUsed) },
      heapAfterGcMb: { before: mb(before.heapUsed), after: mb(afterGc.heapUsed) },
    };
    log(
      `  digest run, week of ${week}, ${result.users} users: ${(ms / 1000).toFixed(1)} s (target ${DIGEST_TARGETS.ms / 1000} s), ` +
        `${r.sent} sent, ${r.empty} empty, ${r.failed} failed, ${mails} mails (${result.mailMb.toFixed(1)} MB) received, event loop held ${loopBlockedMs.toFixed(0)} ms`,
    );
    log(
      `  memory during the run: RSS ${result.rssMb.before.toFixed(0)} → peak ${result.rssMb.peak.toFixed(0)} → ${result.rssMb.after.toFixed(0)} MB, ` +
        `heap ${result.heapMb.before.toFixed(0)} → peak ${result.heapMb.peak.toFixed(0)} → ${result.heapMb.after.toFixed(0)} MB; ` +
        `after a full collection ${result.heapAfterGcMb.before.toFixed(0)} → ${result.heapAfterGcMb.after.toFixed(0)} MB`,
    );
    return result;
  } finally {
    await smtp.close();
    if (others.length > 0) await db.updateTable("users").set({ digest_enabled: true }).where("id", "in", others.map((u) => u.id)).execute();
  }
}
