import { debugCorsSchema } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/test-app.js";

const t = useTestApp({ config: { corsOrigins: ["https://app.school.example"], supportEmail: "help@school.example" } });
const debugCors = (headers: Record<string, string>) => t.app.inject({ method: "GET", url: "/api/debug/cors", headers });

describe("GET /api/debug/cors", () => {
  it("echoes the Origin and reports the CORS decision", async () => {
    const cases: Array<[Record<string, string>, string | null, boolean]> = [
      [{}, null, true],
      [{ origin: "http://localhost:80", host: "localhost:80" }, "http://localhost:80", true],
      [{ origin: "https://tally.school.example", host: "tally.school.example" }, "https://tally.school.example", true],
      [{ origin: "https://app.school.example", host: "api.school.example" }, "https://app.school.example", true],
      [{ origin: "https://evil.example", host: "api.school.example" }, "https://evil.example", false],
      [{ origin: "null", host: "api.school.example" }, "null", false],
      [{ origin: "not a url", host: "api.school.example" }, "not a url", false],
    ];
    for (const [headers, origin, allowed] of cases) {
      const res = await debugCors(headers);
      expect(res.statusCode).toBe(200);
      const body = debugCorsSchema.parse(res.json());
      expect({ origin: body.origin, allowed: body.allowed, method: body.method }).toEqual({ origin, allowed, method: "GET" });
      expect(Number.isNaN(Date.parse(body.time))).toBe(false);
    }
  });

  it("tells nothing of the configuration", async () => {
    const res = await debugCors({ origin: "https://evil.example" });
    expect(Object.keys(res.json()).sort()).toEqual(["allowed", "method", "origin", "time"]);
    expect(res.body).not.toContain("app.school.example");
  });
});

describe("GET /api/public-config", () => {
  it("gives the support address without sign-in", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/public-config" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ supportEmail: "help@school.example" });
  });
});
