import type { EventSourceLike } from "../lib/notifications/notification-client";

/**
 * happy-dom has no EventSource. This one never connects on its own: a test opens, feeds and
 * breaks it by hand. Every instance is kept so tests can find the one the app opened.
 */
export class FakeEventSource implements EventSourceLike {
  static instances: FakeEventSource[] = [];
  closed = false;
  private readonly listeners = new Map<string, Array<(event: never) => void>>();

  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }

  static latest(): FakeEventSource | undefined {
    return FakeEventSource.instances.at(-1);
  }

  static open(): FakeEventSource[] {
    return FakeEventSource.instances.filter((source) => !source.closed);
  }

  addEventListener(type: string, listener: (event: never) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  private emit(type: string, event: Event): void {
    for (const listener of this.listeners.get(type) ?? []) (listener as (event: Event) => void)(event);
  }

  open(): void {
    this.emit("open", new Event("open"));
  }

  /** Sends raw text when given a string, else the value as JSON. */
  send(data: unknown): void {
    this.emit("message", new MessageEvent("message", { data: typeof data === "string" ? data : JSON.stringify(data) }));
  }

  fail(): void {
    this.emit("error", new Event("error"));
  }

  close(): void {
    this.closed = true;
  }
}
