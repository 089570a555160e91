import { buildApp } from "./app.js";
import { ConfigError, loadConfig } from "./config.js";
import { openConfiguredDatabase } from "./db/configured-database.js";
import { seedDemoOnFirstRun } from "./db/seed/first-run.js";
import { systemClock } from "./lib/clock.js";
import { DataDirLockedError } from "./lib/data-dir-lock.js";
import { createMailer } from "./lib/mailer.js";
import { evaluateDemoAlerts } from "./modules/alerts/demo-alerts.service.js";
import { databaseOutbox } from "./modules/mail/mail.service.js";
import { serverLoggerOptions } from "./lib/request-log.js";
import { openControlSocket } from "./modules/ops/control-socket.js";

const OUTBOX_NOTICE = [
  "No SMTP_URL set: e-mails are kept in the database outbox (super admins: GET /api/mail/outbox) with their",
  "one-time links withheld, so reset and verification links reach nobody. To receive them, run a local mail",
  "catcher (`npm run mail-catcher`) and start with SMTP_URL=smtp://127.0.0.1:1025 npm start; or set a first",
  "password with `npm run cli -- create-user` or an administrator's Reset Password.",
];

async function main(): Promise<void> {
  const config = loadConfig();
  const opened = await openConfiguredDatabase(config, "server");
  const logger = serverLoggerOptions(config.logLevel);
  const mailerLog = { info: (obj: object, msg: string) => app.log.info(obj, msg) };
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outbox: databaseOutbox(opened.database.db), log: mailerLog });
  const ctx = { config, database: opened.database, mailer, clock: systemClock };
  const app = await buildApp({ ctx, logger });

  if (opened.applied.length) app.log.info({ migrations: opened.applied }, "database migrated");
  await seedDemoOnFirstRun(opened.database.db, config, (line) => console.log(line), (seeded) => evaluateDemoAlerts(opened.database.db, seeded));
  // `npm run cli -- backup` asks this process for the embedded database while it holds DATA_DIR.
  const closeControl =
    opened.database.engine === "embedded"
      ? await openControlSocket({ dataDir: config.dataDir, database: opened.database, clock: systemClock, log: app.log }).catch((err) => {
          app.log.warn({ err }, "control socket unavailable: `npm run cli -- backup` cannot run while the server does");
          return undefined;
        })
      : undefined;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // app.close() stops accepting, ends the notification streams (preClose) and waits for the
    // requests in flight. Node closes the connections idle at that moment only: the keep-alive
    // connections of streams just ended and of requests finishing later are closed as they go idle.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    sweep.unref();
    await app.close();
    clearInterval(sweep);
    await closeControl?.();
    await opened.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ port: config.port, host: config.host });
  // What the process holds at most, and why: read when a flood of connections has to be explained.
  app.log.info(
    {
      openFileLimit: config.openFileLimit ?? "unknown (4096 assumed)",
      maxConnections: config.httpMaxConnections,
      streams: { total: config.streamsMaxTotal, perUser: config.streamsPerUser, perAddress: config.streamsPerAddress },
      timeoutsMs: { headers: config.httpHeadersTimeoutMs, request: config.httpRequestTimeoutMs, keepAlive: config.httpKeepAliveTimeoutMs },
    },
    "connection limits",
  );
  console.log(`Tally is running on http://localhost:${config.port} (API: /api, database: ${opened.database.engine})`);
  if (mailer.kind === "outbox") for (const line of OUTBOX_NOTICE) console.log(line);
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(err.message);
  } else {
    console.error("Tally could not start:", err);
  }
  process.exit(1);
});
