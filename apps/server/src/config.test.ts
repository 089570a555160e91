import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { ConfigError, loadConfig } from "./config.js";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "tally-config-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("loadConfig", () => {
  test("defaults: port 3000 on 127.0.0.1, embedded database with demo data, outbox mail", () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      dataDir,
      databaseUrl: undefined,
      appUrl: "http://localhost:3000",
      smtpUrl: undefined,
      demoSeed: true,
      demoPassword: undefined,
      logLevel: "info",
    });
  });

  test("APP_URL follows PORT unless set, without a trailing slash", () => {
    expect(loadConfig({ DATA_DIR: tempDir(), PORT: "8080" }).appUrl).toBe("http://localhost:8080");
    expect(loadConfig({ DATA_DIR: tempDir(), APP_URL: "https://tally.example.org/" }).appUrl).toBe(
      "https://tally.example.org",
    );
  });

  test("the generated secret is made once, kept in DATA_DIR readable only by its owner, and reused", () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir }).secretKey;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dataDir, "secret-key"), "utf8").trim()).toBe(first);
    expect(statSync(join(dataDir, "secret-key")).mode & 0o077).toBe(0);
    expect(loadConfig({ DATA_DIR: dataDir }).secretKey).toBe(first);
  });

  test("REQUIRE_MFA_FOR_ADMINS is on by default in production only, and takes on or off", () => {
    const production = { DATA_DIR: tempDir(), NODE_ENV: "production", SECRET_KEY: "x".repeat(32), MAIL_OUTBOX: "on" };
    expect(loadConfig(production).requireMfaForAdmins).toBe(true);
    expect(loadConfig({ ...production, REQUIRE_MFA_FOR_ADMINS: "off" }).requireMfaForAdmins).toBe(false);
    expect(loadConfig({ DATA_DIR: tempDir() }).requireMfaForAdmins).toBe(false);
    expect(loadConfig({ DATA_DIR: tempDir(), REQUIRE_MFA_FOR_ADMINS: "on" }).requireMfaForAdmins).toBe(true);
    expect(() => loadConfig({ DATA_DIR: tempDir(), REQUIRE_MFA_FOR_ADMINS: "yes please" })).toThrow("REQUIRE_MFA_FOR_ADMINS: must be on or off");
  });

  test("MFA_ENCRYPTION_KEY is optional and at least 32 characters", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).mfaEncryptionKey).toBeUndefined();
    expect(loadConfig({ DATA_DIR: tempDir(), MFA_ENCRYPTION_KEY: "m".repeat(32) }).mfaEncryptionKey).toBe("m".repeat(32));
    expect(() => loadConfig({ DATA_DIR: tempDir(), MFA_ENCRYPTION_KEY: "short" })).toThrow("MFA_ENCRYPTION_KEY: must be at least 32 characters");
  });

  test("with DATABASE_URL the demo seed is off unless DEMO_SEED asks for it", () => {
    const url = "postgres://postgres@127.0.0.1:5432/tally";
    expect(loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: url }).demoSeed).toBe(false);
    expect(loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: url, DEMO_SEED: "true" }).demoSeed).toBe(true);
    expect(loadConfig({ DATA_DIR: tempDir(), DEMO_SEED: "off" }).demoSeed).toBe(false);
  });

  test("TRUST_PROXY takes a hop count or a list of addresses and ranges, never 'trust all'", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).trustProxy).toBeUndefined();
    expect(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: "10.0.0.5, 10.1.0.0/16,::1" }).trustProxy).toEqual([
      "10.0.0.5",
      "10.1.0.0/16",
      "::1",
    ]);
    for (const bad of ["true", "*", "all", "0", "11", "0.0.0.0/0", "10.0.0.0/99", "proxy.local", "10.0.0.5/"]) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: must be a hop count/);
    }
  });

  test("every bad value is reported at once", () => {
    let error: unknown;
    try {
      loadConfig({
        DATA_DIR: tempDir(),
        PORT: "abc",
        DATABASE_URL: "mysql://x",
        SMTP_URL: "http://mail",
        APP_URL: "not a url",
        SECRET_KEY: "short",
        DEMO_SEED: "maybe",
        LOG_LEVEL: "loud",
        TRUST_PROXY: "true",
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((p) => p.split(":")[0]);
    expect(problems.sort()).toEqual(
      ["APP_URL", "DATABASE_URL", "DEMO_SEED", "LOG_LEVEL", "PORT", "SECRET_KEY", "SMTP_URL", "TRUST_PROXY"].sort(),
    );
    expect((error as ConfigError).message).toContain("PORT: must be a number");
  });

  test("SUPPORT_EMAIL: given, else the MAIL_FROM address unless it is a no-reply one", () => {
    expect(loadConfig({ DATA_DIR: tempDir(), SUPPORT_EMAIL: "help@school.example" }).supportEmail).toBe("help@school.example");
    expect(loadConfig({ DATA_DIR: tempDir(), MAIL_FROM: "Tally <office@school.example>" }).supportEmail).toBe("office@school.example");
    expect(loadConfig({ DATA_DIR: tempDir() }).supportEmail).toBe("support@tally.example");
    expect(loadConfig({ DATA_DIR: tempDir(), MAIL_FROM: "noreply@school.example" }).supportEmail).toBe("support@tally.example");
    expect(() => loadConfig({ DATA_DIR: tempDir(), SUPPORT_EMAIL: "not an address" })).toThrow("SUPPORT_EMAIL:");
  });

  test("PGLITE_SHARED_BUFFERS: a size, the engine's default when unset", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).pgliteSharedBuffers).toBeUndefined();
    expect(loadConfig({ DATA_DIR: tempDir(), PGLITE_SHARED_BUFFERS: "32MB" }).pgliteSharedBuffers).toBe("32MB");
    for (const bad of ["32", "lots", "32MB; drop table", "0MB"]) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), PGLITE_SHARED_BUFFERS: bad })).toThrow("PGLITE_SHARED_BUFFERS:");
    }
  });

  test("IMPORT_WORKER_HEAP_MB: whole megabytes, 384 when unset", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).importWorkerHeapMb).toBe(384);
    expect(loadConfig({ DATA_DIR: tempDir(), IMPORT_WORKER_HEAP_MB: "512" }).importWorkerHeapMb).toBe(512);
    for (const bad of ["lots", "12", "256.5", "99999"]) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), IMPORT_WORKER_HEAP_MB: bad })).toThrow("IMPORT_WORKER_HEAP_MB:");
    }
  });

  test("DEBUG_BACKEND_ORIGINS: origins the API Debug page may call, nothing else", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).debugBackendOrigins).toEqual([]);
    expect(loadConfig({ DATA_DIR: tempDir(), DEBUG_BACKEND_ORIGINS: "https://dev.example.org,https://tally.example.org" }).debugBackendOrigins).toEqual([
      "https://dev.example.org",
      "https://tally.example.org",
    ]);
    expect(() => loadConfig({ DATA_DIR: tempDir(), DEBUG_BACKEND_ORIGINS: "*" })).toThrow("DEBUG_BACKEND_ORIGINS:");
  });

  test("CORS_ORIGINS: a comma-separated list of origins, nothing else", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).corsOrigins).toEqual([]);
    expect(loadConfig({ DATA_DIR: tempDir(), CORS_ORIGINS: "https://app.example.org, http://localhost:5173/" }).corsOrigins).toEqual([
      "https://app.example.org",
      "http://localhost:5173",
    ]);
    for (const bad of ["*", "app.example.org", "https://app.example.org/path", "ftp://files.example.org"]) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), CORS_ORIGINS: bad })).toThrow("CORS_ORIGINS:");
    }
  });

  test("HTTP timeouts, the connection cap and the stream caps: defaults below the open-file limit", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }, 20_000)).toMatchObject({
      openFileLimit: 20_000,
      httpHeadersTimeoutMs: 10_000,
      httpRequestTimeoutMs: 300_000,
      httpKeepAliveTimeoutMs: 72_000,
      // 80% of the file handles; the rest stay for the database, files and logs.
      httpMaxConnections: 16_000,
      // Half the connections; the other half serve ordinary requests while the streams are full.
      streamsMaxTotal: 8_000,
      streamsPerUser: 10,
      streamsPerAddress: 200,
      httpConnectionsPerAddress: 256,
    });
    // A limit that cannot be read (not Linux): counted as 4096.
    expect(loadConfig({ DATA_DIR: tempDir() }, null)).toMatchObject({ openFileLimit: null, httpMaxConnections: 3_276, streamsMaxTotal: 1_638 });
    // A generous limit: memory, not file handles, is then what runs out first.
    expect(loadConfig({ DATA_DIR: tempDir() }, 1_048_576)).toMatchObject({ httpMaxConnections: 32_768, streamsMaxTotal: 10_000 });
  });

  test("HTTP timeouts, the connection cap and the stream caps: set by the environment, refused when they do not fit", () => {
    const env = {
      DATA_DIR: tempDir(),
      HTTP_HEADERS_TIMEOUT_MS: "5000",
      HTTP_REQUEST_TIMEOUT_MS: "60000",
      HTTP_KEEP_ALIVE_TIMEOUT_MS: "65000",
      HTTP_MAX_CONNECTIONS: "900",
      STREAMS_MAX_TOTAL: "500",
      STREAMS_PER_USER: "4",
      STREAMS_PER_ADDRESS: "120",
      HTTP_CONNECTIONS_PER_ADDRESS: "300",
    };
    expect(loadConfig(env, 1024)).toMatchObject({
      httpHeadersTimeoutMs: 5000,
      httpRequestTimeoutMs: 60_000,
      httpKeepAliveTimeoutMs: 65_000,
      httpMaxConnections: 900,
      streamsMaxTotal: 500,
      streamsPerUser: 4,
      streamsPerAddress: 120,
      httpConnectionsPerAddress: 300,
    });
    const problems = (overrides: Record<string, string>, fileLimit: number | null = 1024) => {
      try {
        loadConfig({ DATA_DIR: tempDir(), ...overrides }, fileLimit);
      } catch (err) {
        if (err instanceof ConfigError) return err.problems.join("\n");
        throw err;
      }
      return "";
    };
    expect(problems({ HTTP_MAX_CONNECTIONS: "1000" })).toMatch(/^HTTP_MAX_CONNECTIONS: .*open-file limit \(1024\)/);
    expect(problems({ HTTP_MAX_CONNECTIONS: "1000" }, null)).toBe("");
    expect(problems({ HTTP_MAX_CONNECTIONS: "600", STREAMS_MAX_TOTAL: "600" })).toMatch(/^STREAMS_MAX_TOTAL: .*HTTP_MAX_CONNECTIONS \(600\)/);
    expect(problems({ STREAMS_MAX_TOTAL: "5000" })).toMatch(/^STREAMS_MAX_TOTAL: /);
    expect(problems({ HTTP_HEADERS_TIMEOUT_MS: "30000", HTTP_REQUEST_TIMEOUT_MS: "20000" })).toMatch(
      /^HTTP_HEADERS_TIMEOUT_MS: .*HTTP_REQUEST_TIMEOUT_MS/,
    );
    for (const [name, bad] of [
      ["STREAMS_PER_USER", "0"],
      ["STREAMS_PER_ADDRESS", "many"],
      ["HTTP_CONNECTIONS_PER_ADDRESS", "0"],
      ["HTTP_MAX_CONNECTIONS", "1.5"],
      ["HTTP_HEADERS_TIMEOUT_MS", "10"],
      ["HTTP_KEEP_ALIVE_TIMEOUT_MS", "-1"],
    ] as const) {
      expect(problems({ [name]: bad }), `${name}=${bad}`).toMatch(new RegExp(`^${name}: `));
    }
  });

  test("production requires SECRET_KEY", () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), NODE_ENV: "production" })).toThrow(
      "SECRET_KEY: required when NODE_ENV=production",
    );
    const key = "k".repeat(40);
    const smtp = "smtp://mail.example.org:587";
    expect(loadConfig({ DATA_DIR: tempDir(), NODE_ENV: "production", SECRET_KEY: key, SMTP_URL: smtp }).secretKey).toBe(key);
  });

  test("production without SMTP_URL refuses to start unless MAIL_OUTBOX opts in to the outbox", () => {
    const key = "k".repeat(40);
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: tempDir(), NODE_ENV: "production", SECRET_KEY: key });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/SMTP_URL: required when NODE_ENV=production/);
    expect((error as ConfigError).message).toContain("MAIL_OUTBOX=on");
    expect(() => loadConfig({ DATA_DIR: tempDir(), NODE_ENV: "production", SECRET_KEY: key, MAIL_OUTBOX: "off" })).toThrow(
      ConfigError,
    );
    const optedIn = loadConfig({ DATA_DIR: tempDir(), NODE_ENV: "production", SECRET_KEY: key, MAIL_OUTBOX: "on" });
    expect(optedIn.smtpUrl).toBeUndefined();
    expect(() => loadConfig({ DATA_DIR: tempDir(), MAIL_OUTBOX: "perhaps" })).toThrow(/MAIL_OUTBOX: must be one of/);
    // Development keeps the outbox without being asked.
    expect(loadConfig({ DATA_DIR: tempDir() }).smtpUrl).toBeUndefined();
  });

  test("production leaves the demo seed off unless DEMO_SEED asks for it", () => {
    const prod = { DATA_DIR: tempDir(), NODE_ENV: "production", SECRET_KEY: "k".repeat(40), MAIL_OUTBOX: "on" };
    expect(loadConfig(prod).demoSeed).toBe(false);
    expect(loadConfig({ ...prod, DEMO_SEED: "true" }).demoSeed).toBe(true);
    expect(loadConfig({ DATA_DIR: tempDir(), NODE_ENV: "development" }).demoSeed).toBe(true);
  });

  test("empty values count as unset", () => {
    expect(loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: "", SMTP_URL: "" })).toMatchObject({
      databaseUrl: undefined,
      smtpUrl: undefined,
    });
  });
});
