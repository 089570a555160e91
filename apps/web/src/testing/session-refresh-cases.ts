import { MESSAGES } from "@tally/contract";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { SESSION_EXPIRED_PATH } from "../lib/api-client";
import { authStore } from "../lib/auth-store";
import { hardNavigation } from "../lib/hard-navigation";
import { readSessionMessage } from "../lib/session-message";
import { FakeXhr, installFakeXhr } from "./fake-xhr";
import { headerOf, jsonResponse, mockFetch } from "./mock-fetch";
import { buildUser, signIn } from "./signed-in-user";

type Answer = { status: number; body: unknown };

/**
 * Answers every request, by fetch or XHR, as `answer` says for its bearer token; the refresh
 * call gives out "new-token". Returns what was asked, in order: the tokens sent, "refresh".
 */
function serve(answer: (token: string | undefined) => Answer): string[] {
  const asked: string[] = [];
  const reply = (url: string, token: string | undefined): Answer => {
    if (url.startsWith("/api/auth/refresh")) {
      asked.push("refresh");
      return { status: 200, body: { token: "new-token", refreshToken: "refresh-2" } };
    }
    asked.push(token ?? "no token");
    return answer(token);
  };
  mockFetch((url, init) => {
    const { status, body } = reply(url, headerOf(init, "Authorization"));
    return jsonResponse(status, body);
  });
  installFakeXhr();
  FakeXhr.script = (xhr) => {
    const { status, body } = reply(xhr.url, xhr.headers.Authorization);
    xhr.reply(status, body);
  };
  return asked;
}

const expired = { status: 401, body: { error: "Token expired", code: "TOKEN_EXPIRED" } };

/**
 * The refresh-once-on-401 rule every authenticated call keeps (lib/api-client's
 * withSessionRefresh): `call` makes one request through the path under test.
 */
export function describeSessionRefresh(call: () => Promise<unknown>): void {
  describe("on a 401 (withSessionRefresh)", () => {
    beforeEach(() => {
      signIn(buildUser(), "old-token", "refresh-1");
      vi.spyOn(hardNavigation, "assign").mockImplementation(() => {});
    });

    it("refreshes the session once and sends again with the refreshed token", async () => {
      const asked = serve((token) => (token === "Bearer new-token" ? { status: 200, body: { done: true } } : expired));
      await call();
      expect(asked).toEqual(["Bearer old-token", "refresh", "Bearer new-token"]);
      expect(authStore.get()).toMatchObject({ token: "new-token", refreshToken: "refresh-2" });
    });

    it("ends the session with the expiry notice when the retry is refused too", async () => {
      const asked = serve(() => expired);
      await expect(call()).rejects.toMatchObject({ status: 401 });
      expect(asked).toEqual(["Bearer old-token", "refresh", "Bearer new-token"]);
      expect(authStore.get().token).toBeNull();
      expect(readSessionMessage()).toBe(MESSAGES.sessionExpired);
      expect(hardNavigation.assign).toHaveBeenCalledWith(SESSION_EXPIRED_PATH);
    });

    it("ends the session at once, without a refresh, when the account changed (SESSION_VERSION_MISMATCH)", async () => {
      const asked = serve(() => ({ status: 401, body: { error: "Session changed", code: "SESSION_VERSION_MISMATCH" } }));
      await expect(call()).rejects.toMatchObject({ status: 401, code: "SESSION_VERSION_MISMATCH" });
      expect(asked).toEqual(["Bearer old-token"]);
      expect(readSessionMessage()).toBe(MESSAGES.sessionVersionMismatch);
    });

    it("passes other refusals through without a refresh", async () => {
      const asked = serve(() => ({ status: 403, body: { error: "Not yours", code: "FORBIDDEN" } }));
      await expect(call()).rejects.toMatchObject({ status: 403, message: "Not yours" });
      expect(asked).toEqual(["Bearer old-token"]);
      expect(authStore.get().token).toBe("old-token");
    });
  });
}
