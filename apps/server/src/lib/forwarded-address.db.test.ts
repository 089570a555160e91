import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../test/test-app.js";
import { RecentValues } from "./forwarded-address.js";
import { serverLoggerOptions } from "./request-log.js";

// Behind a trusted proxy, a forwarded value that is not an IP address (a client's own
// X-Forwarded-For passed on as it came) is ignored: the connection's address stands in, and
// the value is logged once, cut short, as a warning.

const lines: Array<Record<string, unknown>> = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split("\n")) if (line) lines.push(JSON.parse(line));
    done();
  },
});
const t = useTestApp({ config: { trustProxy: 1 }, logger: serverLoggerOptions("info", logStream) });

const get = (forwardedFor: string) =>
  t.app.inject({ method: "GET", url: "/api/health-check", headers: { "x-forwarded-for": forwardedFor }, remoteAddress: "10.9.8.7" });

describe("a forwarded value that is not an IP address", () => {
  it("is logged once per distinct value, cut short, and the request is logged with the connection's address", async () => {
    const long = `${"z".repeat(9_000)}<script>`;
    for (const value of ["<script>alert(1)</script>", long, "<script>alert(1)</script>", long, "198.51.100.7", "203.0.113.1, =cmd|' /C calc'!A0"]) {
      expect((await get(value)).statusCode).toBe(200);
    }
    const warnings = lines.filter((l) => l.level === 40);
    expect(warnings.map((w) => w.forwardedFor)).toEqual(["<script>alert(1)</script>", `${"z".repeat(64)}…`, "=cmd|' /C calc'!A0"]);
    expect(warnings.map((w) => w.length)).toEqual([25, 9_008, 18]);
    expect(warnings[0]?.msg).toMatch(/X-Forwarded-For.*not an IP address/);
    // Nothing in the log holds the long value whole.
    expect(lines.some((l) => JSON.stringify(l).includes("z".repeat(65)))).toBe(false);
    const incoming = lines.filter((l) => l.msg === "incoming request").map((l) => (l.req as { remoteAddress: string }).remoteAddress);
    expect(incoming).toEqual(["10.9.8.7", "10.9.8.7", "10.9.8.7", "10.9.8.7", "198.51.100.7", "10.9.8.7"]);
  });
});

describe("the values remembered as logged", () => {
  it("are bounded: the one least lately seen is forgotten, and logged again when it comes back", () => {
    const seen = new RecentValues(3);
    expect(["a", "b", "c", "a"].map((v) => seen.add(v))).toEqual([true, true, true, false]);
    expect(seen.add("d")).toBe(true);
    expect(seen.size).toBe(3);
    expect(seen.add("b")).toBe(true);
    expect(seen.add("a")).toBe(false);
  });
});
