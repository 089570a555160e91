import { PassThrough } from "node:stream";
import { describe, expect, test } from "vitest";
import { JsonText, writeJsonText } from "./json-stream.js";

async function written(text: JsonText): Promise<unknown> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on("data", (c: Buffer) => chunks.push(c));
  writeJsonText(stream, text);
  stream.end();
  await new Promise((resolve) => stream.on("end", resolve));
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe("JSON made elsewhere (a worker thread)", () => {
  test("is sent as it is, with the extra fields added", async () => {
    const preview = { summary: { totalStudentsInFiles: 2 }, processedStudentDetails: [{ studentFullName: "Zoë Ólafsdóttir" }] };
    expect(await written(new JsonText(bytes(preview)))).toEqual(preview);
    expect(await written(new JsonText(bytes(preview), { batchId: 7, cohortId: 3 }))).toEqual({ ...preview, batchId: 7, cohortId: 3 });
    expect(await written(new JsonText(bytes({}), { batchId: 7 }))).toEqual({ batchId: 7 });
  });
});
