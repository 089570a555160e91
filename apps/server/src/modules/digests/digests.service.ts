import type { DemoSettings, DigestPreview, DigestTestResult } from "@tally/contract";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import { notFound } from "../../lib/errors.js";
import type { MailMessage } from "../../lib/mailer.js";
import { listNewAndEscalatedAlerts, readAlertSchedule } from "../alerts/alerts-digest.service.js";
import { recordChange } from "../audit/audit.service.js";
import { findAccountById, setDigestEnabled as setAccountDigest } from "../users/accounts.service.js";
import { demoClosesAccount, schoolScope } from "../scope/scope.policy.js";
import { listCohortVisibility, readDemoSettings, type VisibilityRow } from "../scope/scope-settings.service.js";
import { buildDigestContent, type DigestContent } from "./digest-content.js";
import { weekStartOf } from "./digest-schedule.js";
import * as repo from "./digests.repository.js";
import { signUnsubscribeToken, verifyUnsubscribeToken } from "./unsubscribe-token.js";

/** The unsubscribe link's route (GET: a confirmation page, POST: unsubscribes; RFC 8058). */
export const UNSUBSCRIBE_PATH = "/api/digests/unsubscribe";
/** At most this many alerts are listed in one e-mail; the rest are counted and left to the list. */
export const DIGEST_ALERT_LIMIT = 200;
const WEEK_MS = 7 * 86_400_000;

export const DIGEST_DELIVERY = {
  /** Sends tried in one run before the delivery is left to the next tick. */
  attemptsPerRun: 3,
  /** Sends tried in all, across runs, before the week's digest is given up. */
  maxAttempts: 9,
  /** Between two tries in one run: this, then twice it … */
  backoffMs: 2000,
  /** A claim not sent after this long is taken over by the next tick (its instance failed or stopped). */
  staleClaimMs: 10 * 60_000,
  /** Users read per page, and digests sent at once: the run streams, it never holds every user's content. */
  pageSize: 100,
  concurrency: 8,
};

/** What one run did. */
export interface DigestRunResult {
  sent: number;
  /** Claimed with nothing to say: no mail, the week counts as done. */
  empty: number;
  failed: number;
}

interface ScopeSettings {
  cohortVisibility: VisibilityRow[];
  demo: DemoSettings;
}

async function readScopeSettings(db: DbExecutor): Promise<ScopeSettings> {
  const [cohortVisibility, demo] = await Promise.all([listCohortVisibility(db), readDemoSettings(db)]);
  return { cohortVisibility, demo };
}

const unsubscribeUrl = (ctx: ServerContext, token: string) => `${ctx.config.appUrl}${UNSUBSCRIBE_PATH}?token=${token}`;

interface BuiltDigest extends DigestContent {
  alerts: number;
  message: MailMessage;
}

/**
 * Where the admin's preview of someone's digest has the unsubscribe link: a link that works
 * for nobody (its page says it is not a valid one), so the preview cannot unsubscribe the user.
 */
const PREVIEW_UNSUBSCRIBE_TOKEN = "preview-only";

/** One user's digest of what was opened or escalated since `since`, ready to send (`preview`: without a working unsubscribe link). */
async function buildDigest(
  ctx: ServerContext,
  user: repo.DigestRecipient,
  since: Date,
  settings: ScopeSettings,
  preview = false,
): Promise<BuiltDigest> {
  const db = ctx.database.db;
  const closed = demoClosesAccount(user.role, user.school_id, settings.demo);
  const { alerts, total } = closed
    ? { alerts: [], total: 0 }
    : await listNewAndEscalatedAlerts(
        db,
        { role: user.role, accessibleSchoolIds: schoolScope(user.role, user.school_id, user.assigned_school_ids), ...settings },
        since,
        DIGEST_ALERT_LIMIT,
      );
  const token = preview ? PREVIEW_UNSUBSCRIBE_TOKEN : await signUnsubscribeToken(ctx.config.secretKey, user.id, ctx.clock.now());
  const url = unsubscribeUrl(ctx, token);
  const content = buildDigestContent({ username: user.username, appUrl: ctx.config.appUrl, unsubscribeUrl: url, since, alerts, total });
  return {
    ...content,
    alerts: total,
    message: {
      to: user.email,
      subject: content.subject,
      text: content.text,
      html: content.html,
      // The outbox (no SMTP) keeps the mail with this link withheld: only the recipient may use it.
      secrets: [url],
      headers: { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    },
  };
}

async function sinceFor(db: DbExecutor, userId: number, week: string, now: Date): Promise<Date> {
  return (await repo.lastDigestAt(db, userId, week)) ?? new Date(now.getTime() - WEEK_MS);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

type Outcome = "sent" | "empty" | "failed" | "skipped";
type DeliveryOptions = typeof DIGEST_DELIVERY & { releaseEmpty: boolean };

/** Claims, builds and sends one user's digest of `week`; never twice once sent. */
async function deliver(ctx: ServerContext, user: repo.DigestRecipient, week: string, settings: ScopeSettings, options: DeliveryOptions): Promise<Outcome> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const claimed =
    (await repo.claimDelivery(db, user.id, week, now)) ||
    (await repo.reclaimDelivery(db, user.id, week, now, new Date(now.getTime() - options.staleClaimMs), options.maxAttempts)) ||
    (options.releaseEmpty && (await repo.reclaimEmptyDelivery(db, user.id, week, now)));
  if (!claimed) return "skipped";
  const digest = await buildDigest(ctx, user, await sinceFor(db, user.id, week, now), settings);
  if (digest.alerts === 0) {
    // After each import, "nothing new" must not use up the week: a later import of the same
    // week that raises this user's alerts still sends their one digest. Monday's run keeps it.
    if (options.releaseEmpty) await repo.releaseClaim(db, user.id, week);
    else await repo.markDelivered(db, user.id, week, ctx.clock.now(), 0, false);
    return "empty";
  }
  for (let attempt = 1; attempt <= options.attemptsPerRun; attempt++) {
    try {
      await ctx.mailer.send(digest.message);
    } catch (err) {
      await repo.recordFailedAttempt(db, user.id, week, errorText(err));
      if (attempt < options.attemptsPerRun) await sleep(options.backoffMs * 2 ** (attempt - 1));
      continue;
    }
    await repo.markDelivered(db, user.id, week, ctx.clock.now(), digest.alerts, true);
    return "sent";
  }
  return "failed";
}

/**
 * The digests of `week` to every user still owed one, a page of users at a time and a few
 * sends at once, so memory stays flat whatever the number of users. Safe to run on several
 * instances at once and again after a restart: each delivery is claimed first.
 * retryOnly: only deliveries already claimed and not sent (after_import's ticks).
 * releaseEmpty: a user with nothing new keeps no claim on the week, and a week an earlier run
 * found empty (Monday's, before the setting changed) is owed again (after_import's runs).
 */
export async function runDigestWeek(
  ctx: ServerContext,
  week: string,
  opts: { retryOnly?: boolean; releaseEmpty?: boolean; delivery?: Partial<typeof DIGEST_DELIVERY> } = {},
): Promise<DigestRunResult> {
  const options: DeliveryOptions = { ...DIGEST_DELIVERY, ...opts.delivery, releaseEmpty: opts.releaseEmpty === true };
  const db = ctx.database.db;
  const settings = await readScopeSettings(db);
  const result: DigestRunResult = { sent: 0, empty: 0, failed: 0 };
  let afterId = 0;
  for (;;) {
    const page = await repo.listOwedRecipients(db, week, {
      afterId,
      limit: options.pageSize,
      maxAttempts: options.maxAttempts,
      retryOnly: opts.retryOnly === true,
      emptyOwed: options.releaseEmpty,
    });
    if (page.length === 0) break;
    afterId = page[page.length - 1]?.id ?? afterId;
    let next = 0;
    const worker = async () => {
      while (next < page.length) {
        const user = page[next++] as repo.DigestRecipient;
        const outcome = await deliver(ctx, user, week, settings, options);
        if (outcome !== "skipped") result[outcome]++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, page.length) }, worker));
  }
  return result;
}

/** The programme week (its Monday, in the programme's time zone) the clock is in now. */
export async function currentDigestWeek(ctx: ServerContext): Promise<string> {
  const { timeZone } = await readAlertSchedule(ctx.database.db);
  return weekStartOf(ctx.clock.now(), timeZone);
}

async function recipientOrNotFound(db: DbExecutor, userId: number): Promise<repo.DigestRecipient> {
  const user = await repo.findRecipient(db, userId);
  if (!user) throw notFound();
  return user;
}

/** Whether the user gets the weekly digest (GET /profile/digest). */
export async function readDigestEnabled(ctx: ServerContext, userId: number): Promise<boolean> {
  return (await recipientOrNotFound(ctx.database.db, userId)).digest_enabled;
}

/** GET /digests/preview: the user's next digest as it would go out now (whatever their setting). */
export async function previewDigest(ctx: ServerContext, userId: number): Promise<DigestPreview> {
  const db = ctx.database.db;
  const week = await currentDigestWeek(ctx);
  const user = await recipientOrNotFound(db, userId);
  // The preview shows another person's e-mail: their working link would let the admin turn their digest off.
  const digest = await buildDigest(ctx, user, await sinceFor(db, user.id, week, ctx.clock.now()), await readScopeSettings(db), true);
  return { userId: user.id, to: user.email, subject: digest.subject, text: digest.text, html: digest.html, alerts: digest.alerts, enabled: user.digest_enabled };
}

/** POST /digests/test: the admin's own next digest, sent now; the week's delivery is left alone. */
export async function sendTestDigest(ctx: ServerContext, actorId: number): Promise<DigestTestResult> {
  const db = ctx.database.db;
  const week = await currentDigestWeek(ctx);
  const user = await recipientOrNotFound(db, actorId);
  const digest = await buildDigest(ctx, user, await sinceFor(db, user.id, week, ctx.clock.now()), await readScopeSettings(db));
  await ctx.mailer.send({ ...digest.message, subject: `[Test] ${digest.subject}` });
  await recordChange(db, {
    actorId,
    action: "user.digest.test_sent",
    entity: "user",
    entityId: String(user.id),
    before: null,
    after: { alerts: digest.alerts },
    at: ctx.clock.now(),
  });
  return { to: user.email, subject: `[Test] ${digest.subject}`, alerts: digest.alerts };
}

/** Turns a user's digest on or off (their profile, or the unsubscribe link); audited when it changes. */
export async function setDigestEnabled(ctx: ServerContext, userId: number, enabled: boolean, via: "profile" | "unsubscribe_link"): Promise<boolean> {
  return ctx.database.db.transaction().execute(async (trx) => {
    const account = await findAccountById(trx, userId);
    if (!account) throw notFound();
    const before = account.digest_enabled;
    await setAccountDigest(trx, userId, enabled);
    if (before !== enabled) {
      await recordChange(trx, {
        actorId: via === "profile" ? userId : null,
        action: "user.digest.changed",
        entity: "user",
        entityId: String(userId),
        before: { digestEnabled: before },
        after: { digestEnabled: enabled, via },
        at: ctx.clock.now(),
      });
    }
    return enabled;
  });
}

/** The user an unsubscribe token names; "expired" for a real link past its 60 days; null when it is no valid link (or the user is gone). */
export async function unsubscribeTarget(ctx: ServerContext, token: string): Promise<repo.DigestRecipient | "expired" | null> {
  const checked = await verifyUnsubscribeToken(ctx.config.secretKey, token, ctx.clock.now());
  if (checked === null || checked === "expired") return checked;
  return (await repo.findRecipient(ctx.database.db, checked.userId)) ?? null;
}
