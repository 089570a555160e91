/**
 * A preview's work kept for the commit of the same files by the same person, so the commit
 * writes at once instead of reading, matching and planning the week again (about 40% of a
 * commit of 25,000 students). Only a server's own work is kept, never anything a client sends
 * back; the commit writes it only when nothing it was made from has changed since (the
 * fingerprint, checked under the import lock), and plans again otherwise. Another instance
 * behind the same database simply plans again: the server stays stateless.
 */
export class PreviewCache<T> {
  private readonly kept = new Map<string, { value: T; timer: NodeJS.Timeout }>();

  constructor(
    /** How long a preview waits for its commit: long enough to read through hundreds of students. */
    private readonly keepMs: number,
    /** Previews kept at once (each is its plan and preview reply: about 25 MB for 25,000 students). */
    private readonly most: number,
  ) {}

  keep(key: string, value: T): void {
    this.drop(key);
    while (this.kept.size >= this.most) this.drop(this.kept.keys().next().value as string);
    const timer = setTimeout(() => this.drop(key), this.keepMs);
    timer.unref();
    this.kept.set(key, { value, timer });
  }

  /** The kept value, which is kept no longer: a commit uses a preview once. */
  take(key: string): T | null {
    const entry = this.kept.get(key);
    if (!entry) return null;
    this.drop(key);
    return entry.value;
  }

  clear(): void {
    for (const key of this.kept.keys()) this.drop(key);
  }

  private drop(key: string): void {
    const entry = this.kept.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.kept.delete(key);
  }
}
