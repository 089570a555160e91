import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeXhr, installFakeXhr } from "../../../testing/fake-xhr";
import { describeSessionRefresh } from "../../../testing/session-refresh-cases";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { ApiError } from "../../../lib/api-error";
import { FlagValidationError, processFlags } from "./process-flags";

const file = (name: string) => new File(["a\n"], name, { type: "text/csv" });
const input = {
  cohortId: 7,
  currentWeek: 3,
  files: { progressReport: file("p.csv"), reflectionReport: file("r.csv"), attendanceReport: file("c.csv") },
};
const ok = { status: "success", message: "ok", validationErrors: [], runId: "run-1", data: [], unmatched: [] };

beforeEach(() => {
  installFakeXhr();
  signIn(buildUser({ role: "super_admin" }), "access-1", "refresh-1");
});
afterEach(() => vi.unstubAllGlobals());

describe("processFlags", () => {
  it("posts the fields and three files with the bearer token, and reports uploading then processing", async () => {
    const stages: string[] = [];
    const reply = processFlags(input, { onStage: (s) => stages.push(s) });
    const xhr = FakeXhr.sent[0]!;
    expect([xhr.method, xhr.url, xhr.headers.Authorization]).toEqual(["POST", "/api/flag-upload/process-flags", "Bearer access-1"]);
    expect((xhr.body as FormData).get("cohortId")).toBe("7");
    expect((xhr.body as FormData).get("currentWeek")).toBe("3");
    expect(((xhr.body as FormData).get("attendanceReport") as File).name).toBe("c.csv");
    expect(stages).toEqual(["uploading"]);
    xhr.uploaded();
    expect(stages).toEqual(["uploading", "processing"]);
    xhr.reply(200, ok);
    expect(await reply).toEqual(ok);
  });

  it("keeps the validation errors of a 400", async () => {
    const reply = processFlags(input);
    FakeXhr.sent[0]!.reply(400, {
      error: "The files have errors",
      code: "VALIDATION_ERROR",
      status: "error",
      message: "The files have errors",
      validationErrors: ["progress.csv: missing column Progress"],
      data: [],
    });
    const error = await reply.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlagValidationError);
    expect((error as FlagValidationError).validationErrors).toEqual(["progress.csv: missing column Progress"]);
  });

  it("throws other refusals as ApiError with the server's text", async () => {
    const reply = processFlags(input);
    FakeXhr.sent[0]!.reply(413, { error: "A file is larger than 10 MB", code: "PAYLOAD_TOO_LARGE" });
    const error = (await reply.catch((e: unknown) => e)) as ApiError;
    expect(error).not.toBeInstanceOf(FlagValidationError);
    expect([error.status, error.code, error.message, error.fromServer]).toEqual([413, "PAYLOAD_TOO_LARGE", "A file is larger than 10 MB", true]);
  });

  it("aborts the request when the signal fires", async () => {
    const controller = new AbortController();
    const reply = processFlags(input, { signal: controller.signal });
    controller.abort();
    expect(FakeXhr.sent[0]!.aborted).toBe(true);
    await expect(reply).rejects.toMatchObject({ name: "AbortError" });
  });
});

describeSessionRefresh(() => processFlags(input));
