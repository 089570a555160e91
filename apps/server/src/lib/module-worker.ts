import { Worker, type WorkerOptions } from "node:worker_threads";

/** A module (a `--import` hook) that lets a worker thread load TypeScript source; none in production. */
let sourceLoader: URL | undefined;

/**
 * Names the loader for worker threads started from TypeScript source. The test set-up sets it
 * (test/ts-worker/register.mjs): under vitest the server runs from its source, which Node 20
 * cannot load in a thread by itself.
 */
export function setWorkerSourceLoader(loader: URL | undefined): void {
  sourceLoader = loader;
}

/**
 * A worker thread running the module `name` beside `callerUrl` (the caller's import.meta.url):
 * the built .js in production; from TypeScript source, the .ts through the loader set above.
 */
export function startModuleWorker(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  if (!callerUrl.endsWith(".ts")) return new Worker(new URL(`./${name}.js`, callerUrl), options);
  if (!sourceLoader) throw new Error(`Worker ${name} runs from TypeScript source: call setWorkerSourceLoader first (the test set-up does)`);
  return new Worker(new URL(`./${name}.ts`, callerUrl), {
    ...options,
    execArgv: [...(options.execArgv ?? []), "--conditions=tally-source", "--import", sourceLoader.href],
  });
}
