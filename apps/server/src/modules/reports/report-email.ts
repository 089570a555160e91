import { REPORT_LIMITS, REPORT_MESSAGES, reportFileName, type sendReportRequestSchema } from "@tally/contract";
import type { FastifyBaseLogger } from "fastify";
import type { z } from "zod";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import { AppError, tooManyRequests } from "../../lib/errors.js";
import type { MailMessage } from "../../lib/mailer.js";
import { recordChange } from "../audit/audit.service.js";
import { isFullExport } from "../exports/exports.policy.js";
import { openExport } from "../exports/exports.service.js";
import type { Caller } from "../scope/scope.service.js";
import { renderReportPdf } from "./pdf-report.js";
import { buildReportModel, type ResolvedReport, resolveReport } from "./reports.service.js";
import { countActorEntries, lockActorSends } from "./reports.repository.js";

/** The audit rows of report e-mails: entity_id is the sender, so the rate limit counts them through the (entity, entity_id) index. */
export const REPORT_EMAIL_ENTITY = "report_email";

const HOUR_MS = 3_600_000;

type SendReportBody = z.output<typeof sendReportRequestSchema>;

/**
 * The mail: the sender's message as plain text (never HTML), then the attachment's name and the
 * report's filters, signed with the sender's name. Replies go to the sender, not to Tally's
 * no-reply address. The PDF is named for its filters and day (the web's download rule).
 */
export function reportMail(
  body: SendReportBody,
  sender: Pick<Caller, "username" | "email">,
  report: Pick<ResolvedReport, "filters" | "names">,
  pdf: Buffer,
  day: string,
): MailMessage {
  const filename = reportFileName(report.names, day, "pdf");
  const greeting = body.recipientName ? `Hello ${body.recipientName},` : "Hello,";
  const lines = [greeting, ""];
  if (body.content.trim()) lines.push(body.content.trim(), "");
  // The message the dialog suggests already says a report is attached: this names the file, not the fact again.
  lines.push(`Attached: ${filename}`, ...report.filters.map((f) => `${f.label}: ${f.value}`), "", "Best regards,", sender.username);
  return {
    to: body.recipient.join(", "),
    ...(body.cc.length > 0 ? { cc: body.cc } : {}),
    replyTo: sender.email,
    subject: body.subject || "Tally attendance report",
    text: lines.join("\n"),
    attachments: [{ filename, content: pdf, contentType: "application/pdf" }],
  };
}

/**
 * POST /email/send-report: at most REPORT_LIMITS.emailsPerHour per user in a rolling hour,
 * counted from the audit log (the same count on every server instance). Each send is one audit
 * row, written before the mail leaves, so a failed send still counts against the limit.
 */
export async function sendReport(
  ctx: ServerContext,
  user: Caller,
  body: SendReportBody,
  log: FastifyBaseLogger,
): Promise<{ message: string }> {
  const db = ctx.database.db;
  const report = await resolveReport(db, user, { schoolId: body.schoolId, cohortId: body.cohortId, teamId: body.teamId, q: body.q });
  // Refused with the seconds until the oldest send of the hour leaves it.
  const refuseWhenFull = async (executor: DbExecutor) => {
    const now = ctx.clock.now();
    const { count, oldest } = await countActorEntries(executor, REPORT_EMAIL_ENTITY, user.id, new Date(now.getTime() - HOUR_MS));
    if (count < REPORT_LIMITS.emailsPerHour) return;
    throw tooManyRequests(REPORT_MESSAGES.emailRateLimited, ((oldest ?? now).getTime() + HOUR_MS - now.getTime()) / 1000);
  };
  // A cheap early refusal before the gate claims anything; the locked count below is the one that decides.
  await refuseWhenFull(db);
  // Not a download (the hourly limit above is the mail's), but a full one counts toward the alarm.
  const ticket = await openExport(ctx, user, { action: "email", schoolIds: report.schoolIds, fullExport: isFullExport(user, report.filter), download: false });
  const model = await buildReportModel(db, user, report, {
    includeStudents: true,
    studentLimit: REPORT_LIMITS.pdfStudentLimit,
    now: ctx.clock.now(),
  });
  const pdf = await renderReportPdf(model);
  await db.transaction().execute(async (trx) => {
    await lockActorSends(trx, user.id);
    await refuseWhenFull(trx);
    await recordChange(trx, {
      actorId: user.id,
      action: "send",
      entity: REPORT_EMAIL_ENTITY,
      entityId: user.id,
      before: null,
      after: {
        recipient: body.recipient.join(", "),
        ...(body.cc.length > 0 ? { cc: body.cc.join(", ") } : {}),
        subject: body.subject,
        filters: { schoolId: body.schoolId ?? null, cohortId: body.cohortId ?? null, teamId: body.teamId ?? null, q: report.filter.q ?? null },
        pdfBytes: pdf.length,
      },
      at: ctx.clock.now(),
    });
  });
  try {
    await ctx.mailer.send(reportMail(body, user, report, pdf, ctx.clock.now().toISOString().slice(0, 10)));
  } catch (err) {
    log.error({ err }, "sending the report e-mail failed");
    throw new AppError(502, "INTERNAL", REPORT_MESSAGES.emailError);
  }
  // A disclosure once the mail has left: the students it names and every address it went to.
  ticket.record(model.studentIds, { recipient: [...body.recipient, ...body.cc].join(", ") });
  return { message: REPORT_MESSAGES.emailSent };
}
