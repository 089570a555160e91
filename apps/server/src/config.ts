import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { isIP } from "node:net";
import { z } from "zod";
import { type OidcProviderConfig, parseOidcProviders } from "./lib/oidc-provider-config.js";
import { openFileLimit } from "./lib/open-file-limit.js";

const booleanish = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off"], {
    error: "must be one of true, false, 1, 0, yes, no, on, off",
  })
  .transform((v) => ["true", "1", "yes", "on"].includes(v));

/** A whole number between `min` and `max`; its error names the range and an example. */
const wholeNumber = (min: number, max: number, example: string) => {
  const error = `must be a whole number from ${min} to ${max}, e.g. ${example}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

/** A comma-separated list of origins, read into a clean list or refused with what is wrong. */
const originList = () =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const parsed = parseOrigins(value);
      if (Array.isArray(parsed)) return parsed;
      ctx.addIssue({ code: "custom", message: parsed });
      return z.NEVER;
    });

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number({ error: "must be a number" }).int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  APP_URL: z.url({ error: "must be a URL such as https://tally.example.org" }).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
    .optional(),
  MAIL_OUTBOX: booleanish.optional(),
  MAIL_FROM: z.string().min(3).default("Tally <no-reply@tally.local>"),
  SECRET_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  DEMO_SEED: booleanish.optional(),
  DEMO_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (typeof parsed !== "string") return parsed;
      ctx.addIssue({ code: "custom", message: parsed });
      return z.NEVER;
    }),
  SUPPORT_EMAIL: z.email({ error: "must be an e-mail address such as help@school.example" }).optional(),
  CORS_ORIGINS: originList(),
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^([1-9]\d{0,4})(kB|MB|GB)$/, { error: "must be a size such as 32MB or 128MB" })
    .optional(),
  IMPORT_WORKER_HEAP_MB: z.coerce
    .number({ error: "must be a whole number of megabytes, e.g. 256" })
    .int({ error: "must be a whole number of megabytes, e.g. 256" })
    .min(16, { error: "must be at least 16 (MB)" })
    .max(8192, { error: "must be at most 8192 (MB)" })
    .default(384),
  DEBUG_BACKEND_ORIGINS: originList(),
  HTTP_HEADERS_TIMEOUT_MS: wholeNumber(1000, 600_000, "10000").default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: wholeNumber(1000, 3_600_000, "300000").default(300_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: wholeNumber(1000, 600_000, "72000").default(72_000),
  HTTP_MAX_CONNECTIONS: wholeNumber(16, 10_000_000, "4000").optional(),
  HTTP_CONNECTIONS_PER_ADDRESS: wholeNumber(1, 10_000_000, "256").default(256),
  STREAMS_MAX_TOTAL: wholeNumber(1, 10_000_000, "2000").optional(),
  STREAMS_PER_USER: wholeNumber(1, 1000, "10").default(10),
  STREAMS_PER_ADDRESS: wholeNumber(1, 10_000_000, "200").default(200),
  OIDC_PROVIDERS: z.string().optional(),
  OIDC_ALLOW_HTTP: booleanish.optional(),
  MFA_ENCRYPTION_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  REQUIRE_MFA_FOR_ADMINS: z.enum(["on", "off"], { error: "must be on or off" }).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export interface Config {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  appUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  secretKey: string;
  demoSeed: boolean;
  demoPassword: string | undefined;
  logLevel: string;
  /**
   * Which callers may say, through X-Forwarded-For / -Proto, who the client is: a hop count
   * or a list of proxy addresses and CIDR ranges. Unset: nobody; the socket address is the client.
   */
  trustProxy: number | string[] | undefined;
  /** Shown on the Server Connection Error page (GET /api/public-config). */
  supportEmail: string;
  /** Other origins (scheme://host[:port]) that GET /api/debug/cors reports as allowed. */
  corsOrigins: string[];
  /**
   * The development and production backends the API Debug page tests (built in with
   * VITE_DEV_API_URL / VITE_PROD_API_URL): the pages' CSP lets the browser call them.
   */
  debugBackendOrigins: string[];
  /** The embedded engine's shared_buffers; 64MB when unset (db/pglite-worker.js). */
  pgliteSharedBuffers: string | undefined;
  /** The heap of one weekly import's worker thread (reading, matching, planning), in MB. */
  importWorkerHeapMb: number;
  /** The process's open-file limit as read at start-up (null: unknown); the connection cap is derived from it. */
  openFileLimit: number | null;
  /** Node's headersTimeout: a request's headers must have arrived by then, else 408 and the connection closes. */
  httpHeadersTimeoutMs: number;
  /**
   * Node's requestTimeout: the whole request, body included (a 30 MB upload on a slow school line).
   * It ends when the request has arrived, so the replies that go on (event streams) are not cut.
   */
  httpRequestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept: longer than proxies keep theirs (60 s), so they never reuse a closing one. */
  httpKeepAliveTimeoutMs: number;
  /** Connections beyond this are dropped at once (and logged), so the process keeps file handles for its own work. */
  httpMaxConnections: number;
  /**
   * Connections one client address (IPv6: a /64) holds at most; a new one replaces the address's
   * oldest idle one, or is refused when none is idle. The proxies of TRUST_PROXY are exempt.
   */
  httpConnectionsPerAddress: number;
  /** Event streams this process holds at most; beyond that a new one gets 429. */
  streamsMaxTotal: number;
  /** Event streams per user: one more closes the user's oldest (STREAM_CLOSED SUPERSEDED). */
  streamsPerUser: number;
  /** Event streams per client address (IPv6: per /64 network); beyond that a new one gets 429. */
  streamsPerAddress: number;
  /** Single sign-on providers (OIDC_PROVIDERS); see docs/sso.md. */
  oidcProviders: OidcProviderConfig[];
  /** OIDC_ALLOW_HTTP: plain-http issuers and a non-https APP_URL for the sign-in cookie (development, tests). */
  oidcAllowHttp: boolean;
  /**
   * REQUIRE_MFA_FOR_ADMINS: admins and super admins without a second factor get 403
   * MFA_ENROLMENT_REQUIRED from every admin route. On by default in production only.
   */
  requireMfaForAdmins: boolean;
  /**
   * MFA_ENCRYPTION_KEY: seals the TOTP keys at rest and keys the hashes of recovery codes and
   * challenges. Unset: SECRET_KEY does (then rotating SECRET_KEY voids every enrolment).
   */
  mfaEncryptionKey: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/**
 * Reads the environment once. Every bad value is reported together, then start-up stops.
 * `fileLimit` is the process's open-file limit (null: unknown), which the connection caps derive from.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, fileLimit: number | null = openFileLimit()): Config {
  // Empty strings count as unset, as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const e = parsed.data;
  const connections = connectionLimits(e, fileLimit);
  const problems: string[] = [...connections.problems];
  const oidcProviders = parseOidcProviders(e.OIDC_PROVIDERS, e.OIDC_ALLOW_HTTP ?? false);
  if (isProblemList(oidcProviders)) problems.push(...oidcProviders);
  if (e.NODE_ENV === "production" && !e.SECRET_KEY) problems.push("SECRET_KEY: required when NODE_ENV=production");
  // Without SMTP nobody receives reset or verification links (the outbox withholds them), so
  // production must either deliver mail or say it knowingly does without.
  if (e.NODE_ENV === "production" && !e.SMTP_URL && !e.MAIL_OUTBOX) {
    problems.push(
      "SMTP_URL: required when NODE_ENV=production, so that password reset and verification e-mails are delivered. " +
        "To run without e-mail, set MAIL_OUTBOX=on: mail is then kept in the database outbox with its one-time links withheld, " +
        "and first passwords are set with `npm run cli -- create-user` or an administrator's Reset Password.",
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const dataDir = resolve(e.DATA_DIR);
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    secretKey: e.SECRET_KEY ?? generatedSecret(dataDir),
    // A new embedded database gets demo data unless told otherwise; PostgreSQL, or any
    // production set-up (demo accounts share one password), only on request.
    demoSeed: e.DEMO_SEED ?? (!e.DATABASE_URL && e.NODE_ENV !== "production"),
    demoPassword: e.DEMO_PASSWORD,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    supportEmail: e.SUPPORT_EMAIL ?? defaultSupportEmail(e.MAIL_FROM),
    corsOrigins: e.CORS_ORIGINS,
    debugBackendOrigins: e.DEBUG_BACKEND_ORIGINS,
    pgliteSharedBuffers: e.PGLITE_SHARED_BUFFERS,
    importWorkerHeapMb: e.IMPORT_WORKER_HEAP_MB,
    openFileLimit: fileLimit,
    httpHeadersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
    httpRequestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
    httpKeepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    httpMaxConnections: connections.maxConnections,
    httpConnectionsPerAddress: e.HTTP_CONNECTIONS_PER_ADDRESS,
    streamsMaxTotal: connections.streamsMaxTotal,
    streamsPerUser: e.STREAMS_PER_USER,
    streamsPerAddress: e.STREAMS_PER_ADDRESS,
    oidcProviders: isProblemList(oidcProviders) ? [] : oidcProviders,
    oidcAllowHttp: e.OIDC_ALLOW_HTTP ?? false,
    mfaEncryptionKey: e.MFA_ENCRYPTION_KEY,
    requireMfaForAdmins: (e.REQUIRE_MFA_FOR_ADMINS ?? (e.NODE_ENV === "production" ? "on" : "off")) === "on",
  };
}

const isProblemList = (list: unknown[]): list is string[] => list.some((item) => typeof item === "string");

/** Assumed where the open-file limit cannot be read. */
const FALLBACK_FILE_LIMIT = 4096;
/** Files HTTP_MAX_CONNECTIONS must leave at the least: database connections, PGlite's files, logs, uploads. */
const FILES_KEPT = 64;

/**
 * The connection cap and the stream cap, from the environment or from the open-file limit:
 * connections take 80% of the file handles (the rest stay for the database, files and logs),
 * streams half the connections (the other half serve ordinary requests while the streams are
 * full). Past some 30,000 connections and 10,000 streams memory runs out before file handles do.
 */
function connectionLimits(
  e: z.infer<typeof envSchema>,
  fileLimit: number | null,
): { maxConnections: number; streamsMaxTotal: number; problems: string[] } {
  const problems: string[] = [];
  const files = fileLimit ?? FALLBACK_FILE_LIMIT;
  const maxConnections = e.HTTP_MAX_CONNECTIONS ?? Math.min(Math.floor(files * 0.8), 32_768);
  const streamsMaxTotal = e.STREAMS_MAX_TOTAL ?? Math.min(Math.floor(maxConnections / 2), 10_000);
  if (fileLimit !== null && maxConnections > fileLimit - FILES_KEPT) {
    problems.push(
      `HTTP_MAX_CONNECTIONS: must be at most ${fileLimit - FILES_KEPT}, the process's open-file limit (${fileLimit}) less ${FILES_KEPT} files for the database, files and logs; raise the limit (ulimit -n) to allow more`,
    );
  }
  if (streamsMaxTotal >= maxConnections) {
    problems.push(
      `STREAMS_MAX_TOTAL: must be below HTTP_MAX_CONNECTIONS (${maxConnections}), so that ordinary requests still get a connection while the streams are full`,
    );
  }
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    problems.push(`HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS (${e.HTTP_REQUEST_TIMEOUT_MS})`);
  }
  return { maxConnections, streamsMaxTotal, problems };
}

/** The MAIL_FROM address, unless it is a no-reply one nobody reads. */
function defaultSupportEmail(mailFrom: string): string {
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  const usable = /^[^\s@]+@[^\s@]+$/.test(address) && !/^no-?reply@/i.test(address);
  return usable ? address : "support@tally.example";
}

/** A comma-separated list of origins, each as scheme://host[:port] with nothing after; or the problem. */
function parseOrigins(value: string | undefined): string[] | string {
  if (value === undefined) return [];
  const origins: string[] = [];
  for (const part of value.split(",").map((p) => p.trim()).filter(Boolean)) {
    let url: URL;
    try {
      url = new URL(part);
    } catch {
      return `"${part}" is not an origin such as https://tally.example.org`;
    }
    if (!["http:", "https:"].includes(url.protocol) || url.origin !== part.replace(/\/+$/, "")) {
      return `"${part}" is not an origin such as https://tally.example.org (scheme, host and port only)`;
    }
    origins.push(url.origin);
  }
  return origins;
}

const TRUST_PROXY_HELP =
  "must be a hop count (1-10) or a comma-separated list of proxy addresses or CIDR ranges (e.g. 10.0.0.5,10.1.0.0/16); trusting every caller is not allowed";

/** A hop count, a list of addresses/ranges, undefined for none, or the problem as a string. */
function parseTrustProxy(value: string | undefined): number | string[] | undefined | string {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops >= 1 && hops <= 10 ? hops : TRUST_PROXY_HELP;
  }
  const entries = text.split(",").map((part) => part.trim()).filter(Boolean);
  return entries.length > 0 && entries.every(isProxyAddressOrRange) ? entries : TRUST_PROXY_HELP;
}

/** An IP address, or a CIDR range no wider than /8 (IPv4) or /16 (IPv6). */
function isProxyAddressOrRange(entry: string): boolean {
  const [address, bits, ...rest] = entry.split("/");
  if (rest.length || !address) return false;
  const version = isIP(address);
  if (!version) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n >= (version === 4 ? 8 : 16) && n <= (version === 4 ? 32 : 128);
}

/** A secret made once and kept in DATA_DIR, so tokens survive restarts. */
function generatedSecret(dataDir: string): string {
  const file = join(dataDir, "secret-key");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** Test suites run against PostgreSQL when TEST_DATABASE_URL is set, else the embedded engine. */
export function testDatabaseUrl(env: Record<string, string | undefined> = process.env): string | undefined {
  return env.TEST_DATABASE_URL || undefined;
}

/** Where a whole test run's server log is captured (tools/with-test-log.mjs sets it); unset = no log. */
export function testLogDir(env: Record<string, string | undefined> = process.env): string | undefined {
  return env.TALLY_TEST_LOG_DIR || undefined;
}

/** A complete configuration for tests, with overrides. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    nodeEnv: "test",
    port: 3000,
    host: "127.0.0.1",
    dataDir: "/nonexistent-tally-test-data",
    databaseUrl: undefined,
    appUrl: "http://localhost:3000",
    smtpUrl: undefined,
    mailFrom: "Tally <no-reply@tally.test>",
    secretKey: "test-secret-key-that-is-long-enough-0123456789",
    demoSeed: false,
    demoPassword: undefined,
    logLevel: "silent",
    trustProxy: undefined,
    supportEmail: "support@tally.test",
    corsOrigins: [],
    debugBackendOrigins: [],
    pgliteSharedBuffers: undefined,
    importWorkerHeapMb: 384,
    openFileLimit: null,
    httpHeadersTimeoutMs: 10_000,
    httpRequestTimeoutMs: 300_000,
    httpKeepAliveTimeoutMs: 72_000,
    httpMaxConnections: 4096,
    httpConnectionsPerAddress: 256,
    streamsMaxTotal: 2048,
    streamsPerUser: 10,
    streamsPerAddress: 200,
    oidcProviders: [],
    oidcAllowHttp: false,
    requireMfaForAdmins: false,
    mfaEncryptionKey: undefined,
    ...overrides,
  };
}
