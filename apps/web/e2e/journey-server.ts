import { inject } from "vitest";
import type { JourneyServer } from "./global-setup";

/**
 * This worker's own server (global-setup.ts starts one per worker). Vitest gives each worker
 * running a file a pool id from 1 to maxWorkers that no other running file has at the time,
 * so two files never share a server at once.
 */
export function journeyServer(): JourneyServer {
  const servers = inject("servers");
  const poolId = Number(process.env.VITEST_POOL_ID);
  const server = servers[poolId - 1];
  if (!server) throw new Error(`No journey server for VITEST_POOL_ID=${process.env.VITEST_POOL_ID} (${servers.length} started)`);
  return server;
}
