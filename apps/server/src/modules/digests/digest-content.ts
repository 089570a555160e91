import { ALERT_RULE_WORDS, ALERT_SEVERITIES, type AlertSeverity } from "@tally/contract";
import type { DigestAlertRow } from "../alerts/alerts-digest.service.js";

// The digest e-mail itself, as plain text and HTML. Everything that comes from data (names,
// evidence) is escaped in the HTML. It carries no session token and no password: the only
// signed thing in it is the unsubscribe link, which can do nothing but turn the digest off.

const SEVERITY_WORDS: Record<AlertSeverity, string> = { urgent: "Urgent", warning: "Warning", info: "Info" };

/**
 * The address that opens a student on the dashboard: the web app's studentLink
 * (apps/web/src/lib/student-link.ts, "/dashboard?student=12") under APP_URL.
 */
export function studentDeepLink(appUrl: string, studentId: number): string {
  return `${appUrl}/dashboard?student=${studentId}`;
}

export interface DigestContentInput {
  username: string;
  appUrl: string;
  unsubscribeUrl: string;
  /** Alerts opened or escalated since this moment are listed. */
  since: Date;
  alerts: readonly DigestAlertRow[];
  /** All that qualify (more than alerts.length when the list was cut). */
  total: number;
}

export interface DigestContent {
  subject: string;
  text: string;
  html: string;
}

interface SchoolGroup {
  name: string;
  bySeverity: Map<AlertSeverity, DigestAlertRow[]>;
}

/** By school (in the order the rows come: by name), then severity, urgent first. */
function groupAlerts(alerts: readonly DigestAlertRow[]): SchoolGroup[] {
  const groups = new Map<string, SchoolGroup>();
  for (const alert of alerts) {
    const key = String(alert.school_id);
    let group = groups.get(key);
    if (!group) {
      group = { name: alert.school_name ?? "No school", bySeverity: new Map() };
      groups.set(key, group);
    }
    const list = group.bySeverity.get(alert.severity) ?? [];
    list.push(alert);
    group.bySeverity.set(alert.severity, list);
  }
  return [...groups.values()];
}

const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const what = (a: DigestAlertRow) => (a.escalated_at ? `escalated ${dayOf(a.escalated_at)}` : `new ${dayOf(a.opened_at)}`);

export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** Subject, text and HTML of one user's digest. */
export function buildDigestContent(input: DigestContentInput): DigestContent {
  const { appUrl, alerts, total } = input;
  const count = plural(total, "alert");
  const subject = total === 0 ? "Tally weekly digest: no new alerts" : `Tally weekly digest: ${count} new or escalated`;
  const intro =
    total === 0
      ? `No alerts were opened or escalated in your schools since ${dayOf(input.since)}.`
      : `${count} in your schools ${total === 1 ? "was" : "were"} opened or escalated since ${dayOf(input.since)}.`;
  const listUrl = `${appUrl}/alerts`;
  const more = total > alerts.length ? total - alerts.length : 0;
  const groups = groupAlerts(alerts);

  const text: string[] = [`Hello ${input.username},`, "", intro, ""];
  const html: string[] = [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>`,
    `<p>Hello ${escapeHtml(input.username)},</p>`,
    `<p>${escapeHtml(intro)}</p>`,
  ];
  for (const group of groups) {
    text.push(`== ${group.name} ==`);
    html.push(`<h2>${escapeHtml(group.name)}</h2>`);
    for (const severity of ALERT_SEVERITIES) {
      const list = group.bySeverity.get(severity);
      if (!list) continue;
      text.push(`-- ${SEVERITY_WORDS[severity]} (${list.length}) --`);
      html.push(`<h3>${SEVERITY_WORDS[severity]} (${list.length})</h3><ul>`);
      for (const a of list) {
        const link = studentDeepLink(appUrl, a.student_id);
        const heading = `${a.student_name} (${a.cohort_name}): ${ALERT_RULE_WORDS[a.rule]}, ${what(a)}`;
        text.push(`* ${heading}`, `  ${a.evidence}`, `  Open: ${link}`);
        html.push(
          `<li><p><a href="${escapeHtml(link)}">${escapeHtml(a.student_name)}</a> (${escapeHtml(a.cohort_name)}): ` +
            `${escapeHtml(ALERT_RULE_WORDS[a.rule])}, ${escapeHtml(what(a))}</p><p>${escapeHtml(a.evidence)}</p></li>`,
        );
      }
      text.push("");
      html.push("</ul>");
    }
  }
  if (more > 0) {
    text.push(`… and ${plural(more, "more alert")}: see the list in Tally.`, "");
    html.push(`<p>… and ${escapeHtml(plural(more, "more alert"))}: see the list in Tally.</p>`);
  }
  text.push(`Needs attention: ${listUrl}`, "");
  text.push("You get this e-mail once a week. To stop it, turn the weekly digest off on your profile, or open:", input.unsubscribeUrl);
  html.push(`<p><a href="${escapeHtml(listUrl)}">Open the Needs attention list</a></p>`);
  html.push(
    `<p>You get this e-mail once a week. To stop it, turn the weekly digest off on your profile, or ` +
      `<a href="${escapeHtml(input.unsubscribeUrl)}">unsubscribe</a>.</p></body></html>`,
  );
  return { subject, text: text.join("\n"), html: html.join("\n") };
}
