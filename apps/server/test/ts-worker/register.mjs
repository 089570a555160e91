// Loaded with `--import` into worker threads started from the server's TypeScript source
// (under vitest): Node 20 cannot run TypeScript, and vitest's transform does not reach
// threads the server starts itself. test-app.ts hands it to src/lib/module-worker.ts.
import { register } from "node:module";

register(new URL("./hooks.mjs", import.meta.url));
