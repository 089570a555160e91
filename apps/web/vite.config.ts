import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ["tally-source"] },
  build: { outDir: "dist", sourcemap: true },
  server: { proxy: { "/api": "http://127.0.0.1:3000" } },
});
