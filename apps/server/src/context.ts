import type { FastifyBaseLogger } from "fastify";
import type { Config } from "./config.js";
import type { DatabaseHandle } from "./db/connection.js";
import type { Clock } from "./lib/clock.js";
import type { Mailer } from "./lib/mailer.js";

/** What every module is built with: no module reads globals or the environment. */
export interface ServerContext {
  config: Config;
  database: DatabaseHandle;
  mailer: Mailer;
  clock: Clock;
  /**
   * Where work that must not fail the request that asked for it logs its failures (the alerts'
   * evaluation and live announcement after a change). buildApp gives its modules the app's.
   */
  log?: Pick<FastifyBaseLogger, "error"> | undefined;
}
