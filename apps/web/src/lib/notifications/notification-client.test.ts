import { MESSAGES, type Notification } from "@tally/contract";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "../../testing/mock-fetch";
import { buildUser, signIn } from "../../testing/signed-in-user";
import { FakeEventSource } from "../../testing/fake-event-source";
import { ApiError } from "../api-client";
import { authStore } from "../auth-store";
import { hardNavigation } from "../hard-navigation";
import { forceLogoutMessage, handleNotification } from "./force-logout";
import { createNotificationClient, type NotificationConnectionState } from "./notification-client";

const at = "2026-11-25T10:00:00.000Z";
const forceLogout: Notification = { id: 7, type: "FORCE_LOGOUT", reason: "ACCOUNT_DEACTIVATED", createdAt: at };

function setup(poll = vi.fn(async (_token: string) => ({ data: [] as Notification[] }))) {
  let token = "t1";
  const received: Notification[] = [];
  const states: NotificationConnectionState[] = [];
  const client = createNotificationClient({
    getToken: () => token,
    onNotification: (n) => received.push(n),
    onStateChange: (s) => states.push(s),
    openEventSource: (url) => new FakeEventSource(url),
    poll,
  });
  return { client, received, states, poll, setToken: (t: string) => (token = t) };
}

beforeEach(() => {
  vi.useFakeTimers();
});

describe("notification client (spec section 4)", () => {
  it("opens the stream with the token and hands on each notification once", () => {
    const { client, received } = setup();
    client.start();
    const source = FakeEventSource.latest()!;
    expect(source.url).toBe("/api/notifications?token=t1");
    source.open();
    expect(client.state()).toBe("open");
    source.send({ id: 0, type: "CONNECTED", createdAt: at });
    source.send(forceLogout);
    source.send(forceLogout);
    source.send("not json");
    expect(received.map((n) => n.type)).toEqual(["CONNECTED", "FORCE_LOGOUT"]);
  });

  it("reconnects 5 times 5 s apart with the current token, then polls every 30 s", async () => {
    const { client, poll, setToken } = setup();
    client.start();
    FakeEventSource.latest()!.fail();
    expect(FakeEventSource.latest()!.closed).toBe(true);
    setToken("t2");
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(client.state()).toBe("waiting-to-reconnect");
      await vi.advanceTimersByTimeAsync(4_999);
      expect(FakeEventSource.instances).toHaveLength(attempt);
      await vi.advanceTimersByTimeAsync(1);
      expect(FakeEventSource.instances).toHaveLength(attempt + 1);
      // A refreshed token is the one sent on reconnect.
      expect(FakeEventSource.latest()!.url).toBe("/api/notifications?token=t2");
      FakeEventSource.latest()!.fail();
    }
    expect(client.state()).toBe("polling");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeEventSource.instances).toHaveLength(6);
    expect(poll).toHaveBeenCalledTimes(2);
    expect(poll).toHaveBeenLastCalledWith("t2");
    client.stop();
  });

  it("counts attempts afresh after a successful reconnect", async () => {
    const { client } = setup();
    client.start();
    for (let i = 0; i < 4; i++) {
      FakeEventSource.latest()!.fail();
      await vi.advanceTimersByTimeAsync(5_000);
    }
    FakeEventSource.latest()!.open();
    FakeEventSource.latest()!.fail();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(client.state()).toBe("connecting");
    client.stop();
  });

  it("delivers polled notifications, skips ones already seen, and stops polling on 401 or 403", async () => {
    for (const status of [401, 403]) {
      let failure: ApiError | null = null;
      const poll = vi.fn(async () => {
        if (failure) throw failure;
        return { data: [forceLogout, { ...forceLogout, id: 8 }] };
      });
      const { client, received } = setup(poll);
      client.start();
      FakeEventSource.latest()!.send(forceLogout);
      for (let i = 0; i <= 5; i++) {
        FakeEventSource.latest()!.fail();
        await vi.advanceTimersByTimeAsync(5_000);
      }
      expect(client.state()).toBe("polling");
      await vi.advanceTimersByTimeAsync(30_000);
      expect(received.map((n) => n.id)).toEqual([7, 8]);
      failure = new ApiError(500, "INTERNAL", "down");
      await vi.advanceTimersByTimeAsync(30_000);
      expect(client.state()).toBe("polling");
      failure = new ApiError(status, "UNAUTHENTICATED", "no");
      await vi.advanceTimersByTimeAsync(30_000);
      expect(client.state()).toBe("stopped");
      const calls = poll.mock.calls.length;
      await vi.advanceTimersByTimeAsync(120_000);
      expect(poll).toHaveBeenCalledTimes(calls);
      FakeEventSource.instances = [];
    }
  });

  it("stop closes the stream and cancels a pending reconnect", async () => {
    const { client } = setup();
    client.start();
    FakeEventSource.latest()!.fail();
    client.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeEventSource.instances).toHaveLength(1);
    client.start();
    expect(FakeEventSource.open()).toHaveLength(1);
    client.stop();
    expect(FakeEventSource.open()).toHaveLength(0);
  });

  it("polls GET /api/notifications-poll with the token in the query by default", async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, { data: [forceLogout] }));
    const received: Notification[] = [];
    const client = createNotificationClient({
      getToken: () => "t9",
      onNotification: (n) => received.push(n),
      openEventSource: (url) => new FakeEventSource(url),
    });
    client.start();
    for (let i = 0; i <= 5; i++) {
      FakeEventSource.latest()!.fail();
      await vi.advanceTimersByTimeAsync(5_000);
    }
    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetchMock.mock.calls[0]![0]).toBe("/api/notifications-poll?token=t9");
    expect(received).toEqual([forceLogout]);
    client.stop();
  });
});

/** What the server sends before it ends a stream it closes on purpose. */
const streamClosed = (reason: "SUPERSEDED" | "SIGNED_OUT" | "TOKEN_EXPIRED"): Notification => ({
  id: 0,
  type: "STREAM_CLOSED",
  reason,
  message: "closed",
  createdAt: at,
});

/** The server's side of a close: the event, then the end of the reply (EventSource's error). */
function closeFromServer(source: FakeEventSource, reason: "SUPERSEDED" | "SIGNED_OUT" | "TOKEN_EXPIRED") {
  source.send(streamClosed(reason));
  source.fail();
}

describe("a stream the server closes (STREAM_CLOSED)", () => {
  it("SUPERSEDED (a newer tab took its place): never reconnects, polls every 30 s instead", async () => {
    const { client, poll, received } = setup();
    client.start();
    const source = FakeEventSource.latest()!;
    source.open();
    closeFromServer(source, "SUPERSEDED");
    expect(source.closed).toBe(true);
    expect(client.state()).toBe("polling");
    expect(received.map((n) => n.reason)).toEqual(["SUPERSEDED"]);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(poll).toHaveBeenCalledTimes(10);
    client.stop();
  });

  it("SIGNED_OUT: stops; no reconnect and no polling", async () => {
    const { client, poll } = setup();
    client.start();
    const source = FakeEventSource.latest()!;
    source.open();
    closeFromServer(source, "SIGNED_OUT");
    expect(client.state()).toBe("stopped");
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(poll).not.toHaveBeenCalled();
  });

  it("TOKEN_EXPIRED: reconnects at once with a fresh token (refreshing it when still the expired one), never falling back to polling", async () => {
    let token = "t1";
    const refreshToken = vi.fn(async (_stale: string) => {
      token = "t2";
    });
    const client = createNotificationClient({
      getToken: () => token,
      onNotification: () => {},
      openEventSource: (url) => new FakeEventSource(url),
      poll: async () => ({ data: [] }),
      refreshToken,
    });
    client.start();
    FakeEventSource.latest()!.open();
    closeFromServer(FakeEventSource.latest()!, "TOKEN_EXPIRED");
    await vi.advanceTimersByTimeAsync(0);
    expect(refreshToken).toHaveBeenCalledWith("t1");
    expect(FakeEventSource.instances).toHaveLength(2);
    expect(FakeEventSource.latest()!.url).toBe("/api/notifications?token=t2");

    // Already refreshed elsewhere (the app refreshes ahead of expiry): straight back with it.
    token = "t3";
    for (let i = 0; i < 7; i++) {
      FakeEventSource.latest()!.open();
      closeFromServer(FakeEventSource.latest()!, "TOKEN_EXPIRED");
      await vi.advanceTimersByTimeAsync(0);
      if (i === 0) expect(FakeEventSource.latest()!.url).toBe("/api/notifications?token=t3");
      token = `t${4 + i}`;
    }
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(FakeEventSource.instances).toHaveLength(9);
    expect(client.state()).toBe("connecting");
    client.stop();
  });
});

describe("FORCE_LOGOUT", () => {
  it("clears the session and goes to /login with the expired notice", () => {
    const assign = vi.spyOn(hardNavigation, "assign").mockImplementation(() => undefined);
    signIn(buildUser());
    handleNotification(forceLogout);
    expect(authStore.get()).toEqual({ token: null, refreshToken: null, user: null });
    expect(assign).toHaveBeenCalledWith("/login?session=expired");
    expect(sessionStorage.getItem("tally.sessionMessage")).toBe(MESSAGES.sessionVersionMismatch);
  });

  it("says an admin changed the account, or that the session expired when sessions were revoked", () => {
    expect(forceLogoutMessage("ACCOUNT_CHANGED")).toBe(MESSAGES.sessionVersionMismatch);
    expect(forceLogoutMessage("PASSWORD_CHANGED")).toBe(MESSAGES.sessionVersionMismatch);
    expect(forceLogoutMessage("SESSIONS_REVOKED")).toBe(MESSAGES.sessionExpired);
    expect(forceLogoutMessage(undefined)).toBe(MESSAGES.sessionExpired);
  });

  it("STREAM_CLOSED SIGNED_OUT ends the session as a refused token does; the other closes leave it alone", () => {
    const assign = vi.spyOn(hardNavigation, "assign").mockImplementation(() => undefined);
    signIn(buildUser());
    handleNotification(streamClosed("SUPERSEDED"));
    handleNotification(streamClosed("TOKEN_EXPIRED"));
    expect(authStore.get().token).toBe("access-1");
    handleNotification(streamClosed("SIGNED_OUT"));
    expect(authStore.get()).toEqual({ token: null, refreshToken: null, user: null });
    expect(assign).toHaveBeenCalledWith("/login?session=expired");
    expect(sessionStorage.getItem("tally.sessionMessage")).toBe(MESSAGES.sessionExpired);
  });

  it("other notifications leave the session alone", () => {
    signIn(buildUser());
    handleNotification({ id: 0, type: "CONNECTED", createdAt: at });
    handleNotification({ id: 3, type: "ERROR", message: "oops", createdAt: at });
    expect(authStore.get().token).toBe("access-1");
  });
});
