export async function runBrowserBench(_opts: { dataDir: string; log: (line: string) => void }): Promise<{ lines: string[]; misses: string[] }> {
  return { lines: [], misses: [] };
}
