import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ["tally-source"] },
  // No source maps in builds: they would publish the source. The dev server (vite) still makes its own.
  build: { outDir: "dist", sourcemap: false },
  server: { proxy: { "/api": "http://127.0.0.1:3000" } },
});
