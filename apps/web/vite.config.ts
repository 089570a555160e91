import { readFileSync } from "node:fs";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/**
 * Emits login.html next to index.html: the same page with the sign-in screen already in it
 * (src/app/sign-in-first-paint.html), served for /login so its first paint does not wait for the
 * app's code (issue 29). Made from the built index.html, so both load exactly the same code.
 */
function signInFirstPaint(): Plugin {
  return {
    name: "tally-sign-in-first-paint",
    apply: "build",
    // After Vite's own HTML plugin, which emits index.html.
    enforce: "post",
    generateBundle(_options, bundle) {
      const index = bundle["index.html"];
      if (index?.type !== "asset") throw new Error("sign-in first paint: the build made no index.html");
      const source = readFileSync(new URL("./src/app/sign-in-first-paint.html", import.meta.url), "utf8");
      const [, styles, screen] = /<!--[\s\S]*?-->\s*(<style[\s\S]*?<\/style>)\s*([\s\S]*)$/.exec(source) ?? [];
      const html = String(index.source);
      if (!styles || !screen || !html.includes('<div id="root"></div>')) {
        throw new Error("sign-in first paint: unexpected sign-in-first-paint.html or index.html");
      }
      const login = html
        .replace('<html lang="en">', '<html lang="en" data-mantine-color-scheme="light">')
        .replace("</head>", `  ${styles}\n  </head>`)
        .replace('<div id="root"></div>', `<div id="root">\n${screen.trim()}\n    </div>`);
      this.emitFile({ type: "asset", fileName: "login.html", source: login });
    },
  };
}

export default defineConfig({
  plugins: [react(), signInFirstPaint()],
  resolve: { conditions: ["tally-source"] },
  // No source maps in builds: they would publish the source. The dev server (vite) still makes its own.
  build: { outDir: "dist", sourcemap: false },
  server: { proxy: { "/api": "http://127.0.0.1:3000" } },
});
