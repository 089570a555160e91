import { type ChildProcess, fork } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type MemoryReading, type ProbeReading, residentMb, watchProcessMemory } from "./probe.js";
import { freePort } from "../../tools/free-port.mjs";

const SERVER_JS = fileURLToPath(new URL("../../apps/server/dist/server.js", import.meta.url));
const PROBE_JS = fileURLToPath(new URL("./server-probe.js", import.meta.url));
/** Server settings a bench run may set in its environment, passed on to the server. */
const SERVER_SETTINGS = ["PGLITE_SHARED_BUFFERS", "IMPORT_WORKER_HEAP_MB", "MALLOC_ARENA_MAX", "MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_"] as const;
const ROOT_PACKAGE = fileURLToPath(new URL("../../package.json", import.meta.url));

/** The environment `npm start` gives the server (`NAME=value` before `node` in its script): the C library's memory settings. */
function startScriptEnv(): Record<string, string> {
  const script: string = JSON.parse(readFileSync(ROOT_PACKAGE, "utf8")).scripts.start;
  const command = script.split("&&").at(-1) ?? "";
  return Object.fromEntries(command.trim().split(/\s+/).flatMap((word) => {
    const setting = /^([A-Z_]+)=(\S+)$/.exec(word);
    return setting ? [[setting[1], setting[2]]] : [];
  }));
}

export interface HttpReply {
  statusCode: number;
  body: string;
  json<T>(): T;
}

/**
 * The built server (`apps/server/dist/server.js`, as `npm start` runs it) in a process of its
 * own, so that its memory, event loop and CPU time are measured alone: neither the bench's
 * generated files and replies nor the seeding that came before count against it.
 */
export interface ServerProcess {
  pid: number;
  url: string;
  port: number;
  request(method: string, path: string, opts?: { headers?: Record<string, string>; body?: FormData | object }): Promise<HttpReply>;
  /** Starts the probe inside the server; the returned function ends it and gives the reading. */
  probe(): Promise<() => Promise<ProbeReading>>;
  /** Peak resident memory of the server process from now until the returned function is called. */
  watchMemory(): () => MemoryReading;
  stop(): Promise<void>;
  /** SIGKILL: an instance that dies, as a crash or a lost machine would. */
  kill(): Promise<void>;
}

function tailOf(file: string): string {
  try {
    return readFileSync(file, "utf8").slice(-20_000);
  } catch {
    return "";
  }
}

function nextMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (message: { type?: string }) => {
      if (message.type === type) {
        child.off("message", onMessage);
        resolve(message as T);
      }
    };
    child.on("message", onMessage);
  });
}

/** Starts the server on the embedded data folder (dataDir holds `pglite/`) or on PostgreSQL. */
export async function startServerProcess(opts: {
  dataDir?: string;
  databaseUrl?: string;
  log: (line: string) => void;
  /** The server's LOG_LEVEL (default warn; the load run logs every request, as production does). */
  logLevel?: string;
  /**
   * Where the server's output goes instead of a pipe to this process. A pipe blocks the
   * server's (synchronous) log writes whenever this busy process is slow to read it, which a
   * log collector in production is not.
   */
  logFile?: string;
}): Promise<ServerProcess> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "development",
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_LEVEL: opts.logLevel ?? "warn",
    DEMO_SEED: "false",
    ...startScriptEnv(),
    // The server's memory settings, when a run sets them (e.g. IMPORT_WORKER_HEAP_MB=160).
    ...Object.fromEntries(SERVER_SETTINGS.flatMap((key) => (process.env[key] ? [[key, process.env[key]]] : []))),
    // Node flags for the server only (e.g. heap limits while tuning), not for the bench itself.
    ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
    ...(opts.dataDir ? { DATA_DIR: opts.dataDir } : {}),
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
  };
  // Node flags for the server only while tuning it (heap limits, --cpu-prof), not for the bench.
  const flags = (process.env.BENCH_SERVER_NODE_FLAGS ?? "").split(/\s+/).filter(Boolean);
  const logFd = opts.logFile ? openSync(opts.logFile, "w") : null;
  const out = logFd ?? "pipe";
  const child = fork(SERVER_JS, [], { execArgv: [...flags, "--import", PROBE_JS], env, stdio: ["ignore", out, out, "ipc"] });
  if (logFd !== null) closeSync(logFd);
  // Only the end is kept, for the message should the server fail.
  let piped = "";
  const keep = (chunk: Buffer) => (piped = (piped + chunk.toString()).slice(-20_000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const outputTail = () => (opts.logFile ? tailOf(opts.logFile) : piped).slice(-2000);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 120_000;
  for (;;) {
    const early = await Promise.race([exited.then((code) => ({ code })), new Promise<null>((r) => setTimeout(() => r(null), 250))]);
    if (early) throw new Error(`the server exited (${early.code}) before it answered:\n${outputTail()}`);
    const ok = await fetch(`${base}/api/health-check`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not answer within 120 s:\n${outputTail()}`);
    }
  }
  const pid = child.pid ?? 0;
  opts.log(`  server process ${pid} on port ${port}: ${residentMb(pid).toFixed(0)} MB resident after start`);

  return {
    pid,
    url: base,
    port,
    async request(method, path, { headers = {}, body } = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (body instanceof FormData) init.body = body;
      else if (body !== undefined) {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)["content-type"] = "application/json";
      }
      const res = await fetch(`${base}${path}`, init);
      const text = await res.text();
      return { statusCode: res.status, body: text, json: <T>() => JSON.parse(text) as T };
    },
    async probe() {
      const started = nextMessage(child, "probe-started");
      child.send({ type: "probe-start" });
      await started;
      return async () => {
        const reading = nextMessage<{ reading: ProbeReading }>(child, "probe-reading");
        child.send({ type: "probe-stop" });
        return (await reading).reading;
      };
    },
    watchMemory: () => watchProcessMemory(pid),
    async kill() {
      child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      child.kill("SIGTERM");
      const code = await Promise.race([exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 15_000))]);
      if (code === "timeout") {
        child.kill("SIGKILL");
        await exited;
      }
    },
  };
}
