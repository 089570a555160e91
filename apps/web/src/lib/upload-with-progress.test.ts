import { beforeEach, describe, expect, it, vi } from "vitest";
import { FakeXhr, installFakeXhr } from "../testing/fake-xhr";
import { describeSessionRefresh } from "../testing/session-refresh-cases";
import { buildUser, signIn } from "../testing/signed-in-user";
import { ApiError } from "./api-error";
import { hardNavigation } from "./hard-navigation";
import { type UploadProgress, uploadWithProgress } from "./upload-with-progress";

const NDJSON = "application/x-ndjson; charset=utf-8";
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

beforeEach(() => {
  installFakeXhr();
  vi.spyOn(hardNavigation, "assign").mockImplementation(() => {});
});

function form() {
  const data = new FormData();
  data.set("weekNumber", "3");
  return data;
}

describe("uploadWithProgress", () => {
  it("sends the form with the bearer token, reports upload percent then each stage as its line arrives, and resolves with the result", async () => {
    signIn(buildUser(), "tok-1");
    const seen: UploadProgress[] = [];
    const seenWhenStreamed: number[] = [];
    FakeXhr.script = (xhr) => {
      xhr.uploaded(50, 200);
      xhr.uploaded(200, 200);
      xhr.respond(200, NDJSON);
      // A line split across two chunks is read once it is whole.
      const reading = line({ type: "stage", stage: "reading" });
      xhr.stream(reading.slice(0, 10));
      seenWhenStreamed.push(seen.length);
      xhr.stream(reading.slice(10) + line({ type: "stage", stage: "matching" }));
      seenWhenStreamed.push(seen.length);
      xhr.stream(`${line({ type: "stage", stage: "writing" })}{"type":"result","data":{"ok":true}}`);
      xhr.finish();
    };
    const result = await uploadWithProgress<{ ok: boolean }>("/flag-upload/preview-weekly-data", form(), {
      onProgress: (p) => seen.push(p),
    });
    expect(result).toEqual({ ok: true });
    const xhr = FakeXhr.sent[0] as FakeXhr;
    expect(xhr.method).toBe("POST");
    expect(xhr.url).toBe("/api/flag-upload/preview-weekly-data");
    expect(xhr.headers.Authorization).toBe("Bearer tok-1");
    expect(xhr.headers.Accept).toContain("application/x-ndjson");
    expect(xhr.body).toBeInstanceOf(FormData);
    expect((xhr.body as FormData).get("weekNumber")).toBe("3");
    expect(seen).toEqual([
      { kind: "upload", percent: 25 },
      { kind: "upload", percent: 100 },
      { kind: "upload", percent: 100 },
      { kind: "stage", stage: "reading" },
      { kind: "stage", stage: "matching" },
      { kind: "stage", stage: "writing" },
    ]);
    // Nothing from the torn half-line; both stages once the rest arrived.
    expect(seenWhenStreamed).toEqual([3, 5]);
  });

  it("throws the server's text from an error line", async () => {
    signIn(buildUser());
    FakeXhr.script = (xhr) => {
      xhr.respond(200, NDJSON);
      xhr.stream(line({ type: "stage", stage: "reading" }));
      xhr.stream(line({ type: "error", statusCode: 400, code: "MISSING_COLUMN", error: "progress.csv: missing column Progress" }));
      xhr.finish();
    };
    const error = await uploadWithProgress("/x", form()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: "MISSING_COLUMN", message: "progress.csv: missing column Progress", fromServer: true });
  });

  it("throws a plain JSON refusal (413) with its status and text", async () => {
    signIn(buildUser());
    FakeXhr.script = (xhr) => {
      xhr.respond(413, "application/json");
      xhr.responseText = JSON.stringify({ error: "Each file may be at most 10 MB", code: "FILE_TOO_LARGE" });
      xhr.finish();
    };
    await expect(uploadWithProgress("/x", form())).rejects.toMatchObject({ status: 413, code: "FILE_TOO_LARGE", message: "Each file may be at most 10 MB" });
  });

  it("stops when the caller aborts, and reports a lost connection as a network error", async () => {
    signIn(buildUser());
    FakeXhr.script = () => {}; // never answers
    const controller = new AbortController();
    const pending = uploadWithProgress("/x", form(), { signal: controller.signal });
    controller.abort(new DOMException("closed", "AbortError"));
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(FakeXhr.sent[0]?.aborted).toBe(true);

    FakeXhr.script = (xhr) => xhr.emit("error");
    await expect(uploadWithProgress("/x", form())).rejects.toMatchObject({ status: 0, code: "NETWORK_ERROR" });
  });

  it("fails clearly when the stream ends without a result", async () => {
    signIn(buildUser());
    FakeXhr.script = (xhr) => {
      xhr.respond(200, NDJSON);
      xhr.stream(line({ type: "stage", stage: "reading" }));
      xhr.finish();
    };
    await expect(uploadWithProgress("/x", form())).rejects.toMatchObject({ code: "INCOMPLETE_REPLY" });
  });
});

describeSessionRefresh(() => uploadWithProgress("/x", form()));
