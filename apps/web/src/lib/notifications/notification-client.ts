import {
  NOTIFICATION_LIMITS,
  type Notification,
  type NotificationsPoll,
  notificationSchema,
  notificationsPollSchema,
} from "@tally/contract";
import { ApiError, apiRequest, apiUrl } from "../api-client";

/** What the client is doing; exposed for tests and the debug page. */
export type NotificationConnectionState =
  | "idle"
  | "connecting"
  | "open"
  | "waiting-to-reconnect"
  | "polling"
  | "stopped";

/** The part of the browser's EventSource the client uses, so tests can pass a fake. */
export interface EventSourceLike {
  addEventListener(type: "open" | "error", listener: (event: Event) => void): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  close(): void;
}

export interface NotificationClientOptions {
  /** Read at every (re)connect and poll, so a refreshed token is the one sent. */
  getToken: () => string | null;
  onNotification: (notification: Notification) => void;
  onStateChange?: (state: NotificationConnectionState) => void;
  openEventSource?: (url: string) => EventSourceLike;
  poll?: (token: string) => Promise<NotificationsPoll>;
  /**
   * Exchanges the refresh token when the server ended a stream because its access token
   * expired and no fresh one is at hand yet (`staleToken` is the expired one).
   */
  refreshToken?: (staleToken: string) => Promise<void>;
}

export interface NotificationClient {
  start(): void;
  stop(): void;
  state(): NotificationConnectionState;
}

/** GET /api/notifications-poll?token=: the token rides in the query, like the stream's. */
export async function pollNotifications(token: string): Promise<NotificationsPoll> {
  const reply = await apiRequest<unknown>("/notifications-poll", { query: { token }, auth: false });
  return notificationsPollSchema.parse(reply);
}

function parseNotification(data: unknown): Notification | null {
  if (typeof data !== "string") return null;
  try {
    const parsed = notificationSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Spec section 4: an event stream; on error up to 5 reconnects 5 s apart, then a poll every
 * 30 s that stops on 401 or 403. The browser's own EventSource retry is switched off (the
 * source is closed on error) so the attempts are counted here. A successful open resets the
 * count: a stream that drops once an hour should not end up polling after five hours.
 *
 * A stream the server ends on purpose says why first (STREAM_CLOSED), and a reconnect would be
 * the wrong answer to two of its reasons: SUPERSEDED (the user has too many streams open and a
 * newer tab took this one's place) falls back to polling, where reconnecting would displace
 * another tab in turn; SIGNED_OUT stops (the app signs the tab out). TOKEN_EXPIRED reconnects
 * at once with a fresh token, without using up an attempt.
 */
export function createNotificationClient(options: NotificationClientOptions): NotificationClient {
  const openEventSource = options.openEventSource ?? ((url: string) => new EventSource(url));
  const poll = options.poll ?? pollNotifications;
  let state: NotificationConnectionState = "idle";
  let source: EventSourceLike | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempts = 0;
  // Notifications already handed on: a poll may repeat what the stream delivered.
  const seen = new Set<number>();

  const setState = (next: NotificationConnectionState) => {
    if (next === state) return;
    state = next;
    options.onStateChange?.(next);
  };

  const deliver = (notification: Notification) => {
    if (notification.id > 0) {
      if (seen.has(notification.id)) return;
      seen.add(notification.id);
    }
    options.onNotification(notification);
  };

  // Events of a closed source may still be queued; `current` keeps them from acting.
  const closeSource = () => {
    source?.close();
    source = null;
  };

  const clearTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };

  const pollOnce = async () => {
    timer = undefined;
    const token = options.getToken();
    if (state !== "polling" || !token) return;
    try {
      const { data } = await poll(token);
      if (state !== "polling") return;
      for (const notification of data) deliver(notification);
    } catch (error) {
      // The token is refused or the account may not listen: asking again cannot help.
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        setState("stopped");
        return;
      }
      // Anything else (server down, timeout) is retried at the next interval.
    }
    if (state === "polling") timer = setTimeout(() => void pollOnce(), NOTIFICATION_LIMITS.pollIntervalMs);
  };

  const startPolling = () => {
    setState("polling");
    timer = setTimeout(() => void pollOnce(), NOTIFICATION_LIMITS.pollIntervalMs);
  };

  const onStreamError = () => {
    closeSource();
    if (state === "stopped" || state === "idle") return;
    if (attempts >= NOTIFICATION_LIMITS.reconnectAttempts) {
      startPolling();
      return;
    }
    attempts += 1;
    setState("waiting-to-reconnect");
    timer = setTimeout(connect, NOTIFICATION_LIMITS.reconnectDelayMs);
  };

  const reconnectWithFreshToken = async (expired: string) => {
    setState("connecting");
    if (options.getToken() === expired && options.refreshToken) {
      try {
        await options.refreshToken(expired);
      } catch {
        // A refused refresh signs the tab out (which stops this client); anything else is a
        // failed attempt like a dropped stream.
        if (state === "connecting") onStreamError();
        return;
      }
    }
    if (state === "connecting") connect();
  };

  const onStreamClosed = (notification: Notification, token: string) => {
    closeSource();
    if (notification.reason === "SUPERSEDED") startPolling();
    else if (notification.reason === "TOKEN_EXPIRED") void reconnectWithFreshToken(token);
    else setState("stopped");
  };

  function connect(): void {
    timer = undefined;
    const token = options.getToken();
    if (!token) {
      setState("stopped");
      return;
    }
    setState("connecting");
    const es = openEventSource(apiUrl("/notifications", { token }));
    source = es;
    const current = () => source === es;
    es.addEventListener("open", () => {
      if (!current()) return;
      attempts = 0;
      setState("open");
    });
    es.addEventListener("message", (event) => {
      if (!current()) return;
      const notification = parseNotification(event.data);
      if (!notification) return;
      deliver(notification);
      if (notification.type === "STREAM_CLOSED" && current()) onStreamClosed(notification, token);
    });
    es.addEventListener("error", () => {
      if (current()) onStreamError();
    });
  }

  return {
    start() {
      if (state !== "idle" && state !== "stopped") return;
      attempts = 0;
      connect();
    },
    stop() {
      clearTimer();
      closeSource();
      setState("stopped");
    },
    state: () => state,
  };
}
