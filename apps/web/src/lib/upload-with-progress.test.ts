import { beforeEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "../testing/mock-fetch";
import { buildUser, signIn } from "../testing/signed-in-user";
import { ApiError } from "./api-error";
import { SESSION_EXPIRED_PATH } from "./api-client";
import { authStore } from "./auth-store";
import { hardNavigation } from "./navigation";
import { type UploadProgress, uploadWithProgress } from "./upload-with-progress";

function add(map: Map<string, Array<(e?: unknown) => void>>, type: string, fn: (e?: unknown) => void) {
  map.set(type, [...(map.get(type) ?? []), fn]);
}

/** A scripted stand-in for XMLHttpRequest: each test says what the server sends and when. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  static script: (xhr: FakeXhr) => void = () => {};
  method = "";
  url = "";
  headers: Record<string, string> = {};
  body: unknown;
  withCredentials = false;
  status = 0;
  statusText = "";
  responseText = "";
  responseHeaders: Record<string, string> = {};
  aborted = false;
  private listeners = new Map<string, Array<(e?: unknown) => void>>();
  private uploadListeners = new Map<string, Array<(e?: unknown) => void>>();
  upload = { addEventListener: (type: string, fn: (e?: unknown) => void) => add(this.uploadListeners, type, fn) };

  addEventListener(type: string, fn: (e?: unknown) => void) {
    add(this.listeners, type, fn);
  }
  emit(type: string, event?: unknown) {
    for (const fn of this.listeners.get(type) ?? []) fn(event);
  }

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getResponseHeader(name: string) {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.sent.push(this);
    FakeXhr.script(this);
  }
  abort() {
    this.aborted = true;
    this.emit("abort");
  }
  // Helpers for the scripts.
  uploaded(loaded: number, total: number) {
    for (const fn of this.uploadListeners.get("progress") ?? []) fn({ lengthComputable: true, loaded, total });
    if (loaded === total) for (const fn of this.uploadListeners.get("load") ?? []) fn();
  }
  respond(status: number, type: string) {
    this.status = status;
    this.responseHeaders["content-type"] = type;
  }
  stream(text: string) {
    this.responseText += text;
    this.emit("progress");
  }
  finish() {
    this.emit("load");
  }
}

const NDJSON = "application/x-ndjson; charset=utf-8";
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

beforeEach(() => {
  FakeXhr.sent = [];
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
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

  it("refreshes the session once on a 401 and sends again with the new token", async () => {
    signIn(buildUser(), "old-token", "refresh-1");
    const fetch = mockFetch(() => jsonResponse(200, { token: "new-token", refreshToken: "refresh-2" }));
    FakeXhr.script = (xhr) => {
      if (xhr.headers.Authorization === "Bearer old-token") {
        xhr.respond(401, "application/json");
        xhr.responseText = JSON.stringify({ error: "Token expired", code: "TOKEN_EXPIRED" });
      } else {
        xhr.respond(200, NDJSON);
        xhr.stream(line({ type: "result", data: 7 }));
      }
      xhr.finish();
    };
    await expect(uploadWithProgress<number>("/x", form())).resolves.toBe(7);
    expect(FakeXhr.sent.map((x) => x.headers.Authorization)).toEqual(["Bearer old-token", "Bearer new-token"]);
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/auth/refresh");
    expect(authStore.get().token).toBe("new-token");
  });

  it("ends the session when the retried upload is refused again", async () => {
    signIn(buildUser(), "old-token", "refresh-1");
    mockFetch(() => jsonResponse(200, { token: "new-token", refreshToken: "refresh-2" }));
    FakeXhr.script = (xhr) => {
      xhr.respond(401, "application/json");
      xhr.responseText = JSON.stringify({ error: "Nope", code: "UNAUTHENTICATED" });
      xhr.finish();
    };
    await expect(uploadWithProgress("/x", form())).rejects.toMatchObject({ status: 401 });
    expect(FakeXhr.sent).toHaveLength(2);
    expect(authStore.get().token).toBeNull();
    expect(hardNavigation.assign).toHaveBeenCalledWith(SESSION_EXPIRED_PATH);
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
