import { REPORT_LIMITS } from "@tally/contract";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { headerOf, jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { describeSessionRefresh } from "../../../testing/session-refresh-cases";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { ApiError } from "../../../lib/api-client";
import { hardNavigation } from "../../../lib/hard-navigation";
import { fetchFile, fileNameFrom } from "./fetch-file";

const PDF_BYTES = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0xe2, 0xe3]);

function pdfResponse(disposition = 'attachment; filename="from-server.pdf"'): Response {
  return new Response(PDF_BYTES, { status: 200, headers: { "Content-Type": "application/pdf", "Content-Disposition": disposition } });
}

beforeEach(() => {
  vi.spyOn(hardNavigation, "assign").mockImplementation(() => {});
});

describe("fileNameFrom", () => {
  it("reads quoted, bare and RFC 5987 names, and falls back", () => {
    expect(fileNameFrom('attachment; filename="tally report.pdf"', "x.pdf")).toBe("tally report.pdf");
    expect(fileNameFrom("attachment; filename=plain.csv", "x.csv")).toBe("plain.csv");
    expect(fileNameFrom("attachment; filename=\"a.pdf\"; filename*=UTF-8''Z%C3%B6e.pdf", "x.pdf")).toBe("Zöe.pdf");
    expect(fileNameFrom('attachment; filename="../../etc/passwd"', "x.pdf")).toBe("passwd");
    expect(fileNameFrom("attachment", "x.pdf")).toBe("x.pdf");
    expect(fileNameFrom(null, "x.pdf")).toBe("x.pdf");
  });
});

describe("fetchFile", () => {
  it("sends the bearer token and keeps the bytes of a binary reply intact", async () => {
    signIn(buildUser(), "tok-1");
    const fetchMock = mockFetch(() => pdfResponse());
    const file = await fetchFile("/pdf-reports/generate", { schoolId: 3, cohortId: undefined }, { fallbackName: "f.pdf", timeoutMs: 1000 });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/pdf-reports/generate?schoolId=3");
    expect(headerOf(init, "Authorization")).toBe("Bearer tok-1");
    expect(file.fileName).toBe("from-server.pdf");
    expect(new Uint8Array(await file.blob.arrayBuffer())).toEqual(PDF_BYTES);
  });

  it("throws the server's 403 and 429 texts as ApiErrors", async () => {
    signIn(buildUser({ role: "school_user", school_id: 2 }));
    mockFetch(() => jsonResponse(403, { error: "Export is switched off.", code: "FORBIDDEN" }));
    const error = await fetchFile("/reports/students.csv", {}, { fallbackName: "f.csv", timeoutMs: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect((error as ApiError).message).toBe("Export is switched off.");
    expect((error as ApiError).fromServer).toBe(true);
  });

  it("gives up after the time limit, even while the reply is still arriving", async () => {
    vi.useFakeTimers();
    signIn(buildUser());
    mockFetch(
      (_url, init) =>
        new Promise<Response>((_, reject) => {
          init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        }),
    );
    const result = fetchFile("/pdf-reports/generate", {}, { fallbackName: "f.pdf", timeoutMs: REPORT_LIMITS.pdfTimeoutMs });
    const settled = result.then(
      () => "resolved",
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(REPORT_LIMITS.pdfTimeoutMs - 1);
    let done = false;
    void settled.then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await settled;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("TIMEOUT");
    expect((error as ApiError).fromServer).toBe(false);
  });
});

describeSessionRefresh(() => fetchFile("/pdf-reports/generate", {}, { fallbackName: "f.pdf", timeoutMs: 1000 }));
