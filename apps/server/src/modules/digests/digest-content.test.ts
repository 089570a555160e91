import { describe, expect, it } from "vitest";
import type { DigestAlertRow } from "../alerts/alerts-digest.service.js";
import { buildDigestContent } from "./digest-content.js";

const row = (over: Partial<DigestAlertRow>): DigestAlertRow => ({
  id: 1,
  student_id: 7,
  student_name: "Ann Archer",
  school_id: 1,
  school_name: "Riverside",
  cohort_name: "Spring",
  rule: "consecutive_misses",
  severity: "warning",
  evidence: "Missed mentor on 2026-01-05 and advisor on 2026-01-06.",
  opened_at: new Date("2026-01-10T09:00:00Z"),
  escalated_at: null,
  ...over,
});

const input = (alerts: DigestAlertRow[], total = alerts.length) => ({
  username: "oak",
  appUrl: "https://tally.example.org",
  unsubscribeUrl: "https://tally.example.org/api/digests/unsubscribe?token=abc",
  since: new Date("2026-01-05T07:00:00Z"),
  alerts,
  total,
});

describe("the digest's content", () => {
  it("groups by school, urgent before warning before info within each, with each student's link", () => {
    const { text, html } = buildDigestContent(
      input([
        row({ id: 1, severity: "info", student_id: 1 }),
        row({ id: 2, severity: "urgent", student_id: 2, escalated_at: new Date("2026-01-11T10:00:00Z") }),
        row({ id: 3, severity: "warning", student_id: 3, school_id: 2, school_name: "Oak Hill" }),
      ]),
    );
    expect(text.indexOf("-- Urgent (1) --")).toBeLessThan(text.indexOf("-- Info (1) --"));
    expect(text.indexOf("== Riverside ==")).toBeLessThan(text.indexOf("== Oak Hill =="));
    expect(text).toContain("escalated 2026-01-11");
    expect(text).toContain("new 2026-01-10");
    expect(text).toContain("since 2026-01-05");
    expect(text).toContain("Open: https://tally.example.org/dashboard?student=2");
    expect(html).toContain('<a href="https://tally.example.org/dashboard?student=3">Ann Archer</a>');
  });

  it("counts what it left out, and names the list and the way out", () => {
    const { subject, text } = buildDigestContent(input([row({})], 250));
    expect(subject).toBe("Tally weekly digest: 250 alerts new or escalated");
    expect(text).toContain("… and 249 more alerts");
    expect(text).toContain("Needs attention: https://tally.example.org/alerts");
    expect(text).toContain("https://tally.example.org/api/digests/unsubscribe?token=abc");
  });

  it("escapes every value in the HTML", () => {
    const { html } = buildDigestContent(input([row({ student_name: `<img src=x onerror="y">`, school_name: "A & B", evidence: "<b>2</b>" })]));
    expect(html).not.toMatch(/<img|<b>2/);
    expect(html).toContain("&lt;img src=x onerror=&quot;y&quot;&gt;");
    expect(html).toContain("A &amp; B");
  });
});
