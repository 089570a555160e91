import { createHash } from "node:crypto";
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
      const start = afterFirstPaint(inlineStyles(html, bundle));
      this.emitFile({ type: "asset", fileName: start.fileName, source: start.code });
      const login = start.html
        .replace('<html lang="en">', '<html lang="en" data-mantine-color-scheme="light">')
        .replace("</head>", `  ${styles}\n  </head>`)
        .replace('<div id="root"></div>', `<div id="root">\n${screen.trim()}\n    </div>`);
      this.emitFile({ type: "asset", fileName: "login.html", source: login });
    },
  };
}

type Bundle = Parameters<NonNullable<Extract<Plugin["generateBundle"], (...args: never[]) => unknown>>>[1];

/**
 * The render-blocking stylesheet, written into the page: the first paint then needs the HTML
 * alone, not a second round trip (on slow 4G, 150 ms and more). The file stays for index.html.
 */
function inlineStyles(html: string, bundle: Bundle): string {
  return html.replace(/<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/g, (_tag, fileName: string) => {
    const css = bundle[fileName];
    if (css?.type !== "asset") throw new Error(`sign-in first paint: no ${fileName} in the build`);
    return `<style>${String(css.source)}</style>`;
  });
}

/**
 * The app's scripts, asked for once the static screen has painted: requested with the page,
 * they share a slow line with it and hold its first paint back. The fields are disabled until
 * the app runs, so nothing is lost; the delay is one frame.
 */
function afterFirstPaint(html: string): { html: string; fileName: string; code: string } {
  const scripts: string[] = [];
  const preloads: string[] = [];
  const stripped = html
    .replace(/\s*<script type="module" crossorigin src="([^"]+)"><\/script>/g, (_tag, src: string) => {
      scripts.push(src);
      return "";
    })
    .replace(/\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g, (_tag, href: string) => {
      preloads.push(href);
      return "";
    });
  if (scripts.length !== 1) throw new Error(`sign-in first paint: expected one entry script, found ${scripts.length}`);
  const code = `requestAnimationFrame(function () {
  setTimeout(function () {
    var head = document.head;
    ${JSON.stringify(preloads)}.forEach(function (href) {
      var link = document.createElement("link");
      link.rel = "modulepreload";
      link.crossOrigin = "";
      link.href = href;
      head.appendChild(link);
    });
    var script = document.createElement("script");
    script.type = "module";
    script.crossOrigin = "";
    script.src = ${JSON.stringify(scripts[0])};
    head.appendChild(script);
  }, 0);
});
`;
  // A file, not an inline script: the Content-Security-Policy allows scripts from 'self' only.
  const fileName = `assets/start-app-${createHash("sha256").update(code).digest("hex").slice(0, 8)}.js`;
  return { html: stripped.replace("</body>", `  <script defer src="/${fileName}"></script>\n  </body>`), fileName, code };
}

export default defineConfig({
  plugins: [react(), signInFirstPaint()],
  resolve: { conditions: ["tally-source"] },
  // No source maps in builds: they would publish the source. The dev server (vite) still makes its own.
  build: { outDir: "dist", sourcemap: false },
  server: { proxy: { "/api": "http://127.0.0.1:3000" } },
});
