import { vi } from "vitest";

type Listener = (event?: unknown) => void;

function add(map: Map<string, Listener[]>, type: string, fn: Listener) {
  map.set(type, [...(map.get(type) ?? []), fn]);
}

/**
 * A scripted stand-in for XMLHttpRequest (the uploads use XHR for its upload progress): it
 * records each request sent; `script` answers at once, or the test answers a request later.
 */
export class FakeXhr {
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
  private listeners = new Map<string, Listener[]>();
  private uploadListeners = new Map<string, Listener[]>();
  upload = { addEventListener: (type: string, fn: Listener) => add(this.uploadListeners, type, fn) };

  addEventListener(type: string, fn: Listener) {
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

  // What the server does, for scripts and tests.
  /** Upload progress; at `loaded === total` the upload has finished. */
  uploaded(loaded = 1, total = 1) {
    for (const fn of this.uploadListeners.get("progress") ?? []) fn({ lengthComputable: true, loaded, total });
    if (loaded === total) for (const fn of this.uploadListeners.get("load") ?? []) fn();
  }
  /** The status line and content type of the reply. */
  respond(status: number, type: string) {
    this.status = status;
    this.responseHeaders["content-type"] = type;
  }
  /** More of the reply's body arrives. */
  stream(text: string) {
    this.responseText += text;
    this.emit("progress");
  }
  /** The reply is complete. */
  finish() {
    this.emit("load");
  }
  /** A whole JSON reply at once. */
  reply(status: number, body: unknown) {
    this.respond(status, "application/json");
    this.responseText = JSON.stringify(body);
    this.finish();
  }
}

/** Puts FakeXhr in place of XMLHttpRequest, with nothing sent yet and no script. */
export function installFakeXhr(): void {
  FakeXhr.sent = [];
  FakeXhr.script = () => {};
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
}
