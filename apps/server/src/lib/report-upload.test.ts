import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { BLOCK_BYTES, BlockWriter, joinBlocks, UploadedReport } from "./report-upload.js";

describe("upload blocks", () => {
  test("any chunking of a file gives blocks of at most 1 MB that join to the same bytes", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 * BLOCK_BYTES + 17 }),
        fc.array(fc.integer({ min: 1, max: 400_000 }), { minLength: 1, maxLength: 40 }),
        (size, cuts) => {
          const file = new Uint8Array(size);
          for (let i = 0; i < size; i++) file[i] = (i * 31 + 7) % 251;
          const writer = new BlockWriter();
          let started = 0;
          for (let at = 0, i = 0; at < size; i++) {
            const end = Math.min(size, at + (cuts[i % cuts.length] ?? 1));
            if (writer.write(file.subarray(at, end))) started++;
            at = end;
          }
          const blocks = writer.finish();
          expect(writer.size).toBe(size);
          expect(blocks.every((b) => b.length <= BLOCK_BYTES)).toBe(true);
          expect(blocks.slice(0, -1).every((b) => b.length === BLOCK_BYTES)).toBe(true);
          // write() says when a full block was set aside: every block but the last one.
          expect(started).toBe(blocks.length - 1);
          expect(Buffer.from(joinBlocks(blocks)).equals(file)).toBe(true);
          // The last block holds only its own bytes (a small file does not keep 1 MB).
          expect(blocks[blocks.length - 1]!.buffer.byteLength).toBe(blocks[blocks.length - 1]!.length);
        },
      ),
      { numRuns: 25 },
    );
  });

  test("an uploaded report joins its blocks once, for readers in this thread", () => {
    const report = new UploadedReport("a.csv", [new Uint8Array([65, 44]), new Uint8Array([66, 10])], 4, "hash");
    expect(new TextDecoder().decode(report.bytes)).toBe("A,B\n");
    expect(report.bytes).toBe(report.bytes);
  });
});
