import { Badge } from "@mantine/core";
import type { AlertSeverity, AlertState } from "@tally/contract";

// Severity and "needs attention" are shown by a glyph and a word, never by colour alone.
const SEVERITY: Record<AlertSeverity, { glyph: string; word: string; color: string }> = {
  urgent: { glyph: "‼", word: "Urgent", color: "red" },
  warning: { glyph: "⚠", word: "Warning", color: "orange" },
  info: { glyph: "ℹ", word: "Info", color: "blue" },
};

export const ALERT_STATE_WORDS: Record<AlertState, string> = {
  open: "Open",
  acknowledged: "Acknowledged",
  resolved: "Resolved",
  dismissed: "Dismissed",
};

export function SeverityMark({ severity }: { severity: AlertSeverity }) {
  const s = SEVERITY[severity];
  return (
    // At its full width: a table column squeezes a badge's label to "‼ UR…" otherwise.
    <Badge variant="light" color={s.color} miw="max-content" leftSection={<span aria-hidden="true">{s.glyph}</span>} data-testid="severity">
      {s.word}
    </Badge>
  );
}

/** The mark of a student with an open or acknowledged alert (dashboard cards and table rows). */
export function NeedsAttentionMark() {
  return (
    <Badge
      variant="outline"
      color="red"
      size="sm"
      leftSection={<span aria-hidden="true">⚑</span>}
      data-testid="needs-attention-mark"
    >
      Needs attention
    </Badge>
  );
}
