import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * A worker thread running the module `name` beside `callerUrl` (the caller's import.meta.url):
 * the built .js in production. Under vitest the server runs from its TypeScript source, which
 * Node 20 cannot load by itself, so the source is loaded through test/ts-worker/register.mjs.
 */
export function startModuleWorker(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  if (!callerUrl.endsWith(".ts")) return new Worker(new URL(`./${name}.js`, callerUrl), options);
  const register = new URL("../../test/ts-worker/register.mjs", import.meta.url);
  return new Worker(new URL(`./${name}.ts`, callerUrl), {
    ...options,
    execArgv: [...(options.execArgv ?? []), "--conditions=tally-source", "--import", register.href],
  });
}
