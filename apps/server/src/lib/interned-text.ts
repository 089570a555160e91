/**
 * One copy of each repeated text. A week's reports and records repeat a few values tens of
 * thousands of times (seven dates, a few hundred schools and teams, the import's timestamp),
 * and every parsed cell or received row is a string of its own: on the bench's week 36 MB of
 * the import worker's 40 MB of strings were such copies.
 */
export class InternedText {
  private readonly seen = new Map<string, string>();

  of(value: string): string;
  of(value: string | null): string | null;
  of(value: string | null): string | null {
    if (value === null) return null;
    const known = this.seen.get(value);
    if (known !== undefined) return known;
    this.seen.set(value, value);
    return value;
  }
}
