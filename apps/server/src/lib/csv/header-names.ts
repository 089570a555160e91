import { ReportRejected } from "./report-rejected.js";

const stripAccents = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "");

/** A header reduced to lower-case letters and digits: "Past Due Assessments " = "past_due_assessments". */
export function foldHeader(header: string): string {
  return stripAccents(header).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/** A header as lower-case words, for "the header that contains the word hours". */
const headerWords = (header: string) => ` ${stripAccents(header).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim()} `;

export interface ColumnRule {
  /** The column's name in messages: `required column "Progress" is missing`. */
  label: string;
  /** Accepted headers, best first; compared folded. The first alias that occurs wins. */
  aliases?: readonly string[];
  /** Otherwise: the header contains one of these words (or words starting so: "feel" → "feeling"). */
  wordPrefixes?: readonly string[];
  /** When several headers match by word, those containing these words give way ("Describe how you feel"). */
  otherRoleWords?: readonly string[];
  required?: boolean;
}

/** Finds report columns by header, refusing a missing required column or an ambiguous one. */
export class ColumnFinder {
  private readonly folded: string[];
  private readonly claimed = new Set<number>();

  constructor(
    readonly headers: readonly string[],
    readonly file: string,
  ) {
    this.folded = headers.map(foldHeader);
  }

  /** The index of the rule's column, or null when it is absent and not required. */
  find(rule: ColumnRule): number | null {
    const matches = this.matches(rule);
    if (matches.length > 1) {
      const [a, b] = matches.map((i) => `"${this.headers[i]}"`);
      throw new ReportRejected(`${this.file}: ambiguous column for "${rule.label}": both ${a} and ${b} match`);
    }
    const index = matches[0];
    if (index === undefined) {
      if (rule.required) throw new ReportRejected(`${this.file}: required column "${rule.label}" is missing`);
      return null;
    }
    // A header serves one role: the reflection question "hours" is not also the "rating".
    this.claimed.add(index);
    return index;
  }

  /** The header of a column as written in the file (for row errors). */
  header(index: number): string {
    return this.headers[index] ?? "";
  }

  private matches(rule: ColumnRule): number[] {
    const free = this.folded.map((_, i) => i).filter((i) => !this.claimed.has(i));
    for (const alias of rule.aliases ?? []) {
      const key = foldHeader(alias);
      const hits = free.filter((i) => this.folded[i] === key);
      if (hits.length > 0) return hits;
    }
    const prefixes = rule.wordPrefixes ?? [];
    if (prefixes.length === 0) return [];
    const hasWord = (i: number, words: readonly string[]) => words.some((p) => headerWords(this.headers[i] ?? "").includes(` ${p}`));
    const hits = free.filter((i) => hasWord(i, prefixes));
    const clear = hits.filter((i) => !hasWord(i, rule.otherRoleWords ?? []));
    return hits.length > 1 && clear.length === 1 ? clear : hits;
  }
}
