import { describe, expect, it } from "vitest";
import { useSignedIn, useTestApp } from "../../test/test-app.js";

// Multipart forms are read once, by one plugin, and only by the routes that take a form.

const t = useTestApp();
const superAdmin = useSignedIn(t, { role: "super_admin" });

const FORM = '--abc\r\nContent-Disposition: form-data; name="cohortId"\r\n\r\n1\r\n--abc--\r\n';
const post = (method: "POST" | "PUT", url: string) =>
  t.app.inject({ method, url, headers: { ...superAdmin.headers, "content-type": "multipart/form-data; boundary=abc" }, payload: FORM });

describe("a multipart body", () => {
  it.each([
    ["POST", "/api/auth/login"],
    ["PUT", "/api/students/1"],
    ["POST", "/api/settings/features"],
    // These two sat beside an upload route and took the form as no body at all.
    ["POST", "/api/flag-upload/confirm-flag-import"],
    ["POST", "/api/imports/1/undo"],
  ] as const)("is refused with 415 by %s %s, which takes JSON", async (method, url) => {
    const res = await post(method, url);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ error: "Unsupported Media Type", code: "VALIDATION_ERROR" });
  });

  it("to no route is still a 404", async () => {
    const res = await post("POST", "/api/no-such-route");
    expect(res.statusCode).toBe(404);
  });

  it.each(["/api/flag-upload/process-flags", "/api/flag-upload/preview-weekly-data", "/api/flag-upload/commit-weekly-data"])(
    "is read by the upload route %s (a form without its files is refused for that)",
    async (url) => {
      const res = await post("POST", url);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/^Please upload all three required files\. Missing: /);
    },
  );
});
