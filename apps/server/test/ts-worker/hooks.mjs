// Module hooks for the server's TypeScript source in a worker thread: a relative "./x.js"
// that exists only as "./x.ts" is the source file (the project writes its imports as the
// build will name them), and .ts files are stripped of their types by rolldown's oxc
// transform, the one Vite already uses for the tests.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { transformSync } from "rolldown/utils";

export async function resolve(specifier, context, nextResolve) {
  if (/^\.\.?\//.test(specifier) && specifier.endsWith(".js") && context.parentURL?.startsWith("file:")) {
    const asJs = new URL(specifier, context.parentURL);
    if (!existsSync(fileURLToPath(asJs))) {
      const asTs = new URL(specifier.replace(/\.js$/, ".ts"), context.parentURL);
      if (existsSync(fileURLToPath(asTs))) return { url: asTs.href, shortCircuit: true };
    }
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const result = transformSync(path, await readFile(path, "utf8"));
  if (result.errors.length > 0) throw new Error(`${path}: ${result.errors.map((e) => e.message).join("; ")}`);
  return { format: "module", source: result.code, shortCircuit: true };
}
