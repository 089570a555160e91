import type { Writable } from "node:stream";
import { inChunks } from "./json-rows.js";
import { yieldToLoop } from "./yield-to-loop.js";

/**
 * Writes `value` as JSON with its large array `key` stringified a thousand items at a time:
 * tens of thousands of rows in one JSON.stringify, or sent as one string (encoded whole to
 * count its bytes), hold the event loop for a tenth of a second or more.
 */
export async function writeJsonWithLargeArray<K extends string>(stream: Writable, value: Record<K, unknown[]> & object, key: K): Promise<void> {
  const { [key]: items, ...rest } = value as Record<string, unknown>;
  stream.write(`{${JSON.stringify(key)}:[`);
  for (const [i, chunk] of inChunks(items as unknown[], 1000).entries()) {
    if (i > 0) await yieldToLoop();
    stream.write(`${i === 0 ? "" : ","}${JSON.stringify(chunk).slice(1, -1)}`);
  }
  const tail = JSON.stringify(rest);
  stream.write(tail === "{}" ? "]}" : `],${tail.slice(1)}`);
}
