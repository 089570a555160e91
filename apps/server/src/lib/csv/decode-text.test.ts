import { describe, expect, it } from "vitest";
import { ReportRejected } from "./report-rejected.js";
import { decodeText } from "./decode-text.js";

const utf8 = (s: string) => new TextEncoder().encode(s);

describe("decodeText", () => {
  it("decodes UTF-8 and strips the byte-order mark", async () => {
    expect(await decodeText(utf8("\uFEFFName\nJosé"), "a.csv")).toBe("Name\nJosé");
    expect(await decodeText(utf8("Name\nZoë"), "a.csv")).toBe("Name\nZoë");
  });

  it("reads bytes that are not valid UTF-8 as Windows-1252", async () => {
    // "José;Zoë;€5" in Windows-1252: é = E9, ë = EB, € = 80.
    const bytes = new Uint8Array([0x4a, 0x6f, 0x73, 0xe9, 0x3b, 0x5a, 0x6f, 0xeb, 0x3b, 0x80, 0x35]);
    expect(await decodeText(bytes, "a.csv")).toBe("José;Zoë;€5");
  });

  it("reads UTF-16 with a byte-order mark", async () => {
    const text = "Name\tHours\nZoë\t3";
    const le = new Uint8Array(2 + text.length * 2);
    le.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) le[2 + i * 2] = text.charCodeAt(i);
    expect(await decodeText(le, "a.csv")).toBe(text);
  });

  it.each([
    ["a PDF", [0x25, 0x50, 0x44, 0x46, 0x2d, 0x31]],
    ["an xlsx", [0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]],
    ["a NUL byte", [0x4e, 0x61, 0x6d, 0x65, 0x00, 0x41]],
  ])("refuses %s with the file's name", async (_label, bytes) => {
    const run = () => decodeText(new Uint8Array(bytes), "progress.xlsx");
    await expect(run()).rejects.toThrow(ReportRejected);
    await expect(run()).rejects.toThrow(/^progress\.xlsx is not a CSV file/);
  });

  it("decodes a file larger than one slice, with a character split across slices", async () => {
    // 1 MiB of "a" then "é" (two bytes in UTF-8) straddling the slice boundary.
    const text = `${"a".repeat(1024 * 1024 - 1)}é and more`;
    expect(await decodeText(utf8(text), "big.csv")).toBe(text);
    const cp1252 = new Uint8Array(1024 * 1024 + 3).fill(0x61);
    cp1252[1024 * 1024] = 0x80;
    expect((await decodeText(cp1252, "big.csv")).slice(1024 * 1024 - 1, 1024 * 1024 + 2)).toBe("a€a");
  });
});
