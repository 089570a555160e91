import type { Writable } from "node:stream";
import { inChunks } from "./in-chunks.js";
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

/** A JSON object already serialised (in a worker thread), with fields to add when it is sent. */
export class JsonText {
  constructor(
    readonly bytes: Uint8Array,
    readonly extra: Record<string, unknown> = {},
  ) {}
}

/** Writes a JsonText as one object: its bytes as they are, then the extra fields. */
export function writeJsonText(stream: Writable, text: JsonText): void {
  const extra = JSON.stringify(text.extra);
  if (extra === "{}") {
    stream.write(text.bytes);
    return;
  }
  // The bytes are JSON.stringify's: no white space, "}" last.
  const closing = text.bytes.lastIndexOf(0x7d);
  stream.write(text.bytes.subarray(0, closing));
  stream.write(`${closing === 1 ? "" : ","}${extra.slice(1)}`);
}
