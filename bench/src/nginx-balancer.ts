import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Balancer, BalancerCounts } from "./load-balancer.js";
import { freePort } from "../../tools/free-port.mjs";

/** nginx, where it is installed (`apt-get install nginx-light`): the reverse proxy a deployment puts in front. */
export function nginxPath(): string | null {
  for (const path of ["/usr/sbin/nginx", "/usr/bin/nginx"]) if (existsSync(path)) return path;
  return null;
}

/**
 * The README's deployment in front of several instances: nginx, round-robin, keep-alive
 * connections to the instances, and `proxy_next_upstream` sending a request whose instance is
 * gone on to the next one when it is safe to repeat (nginx never repeats a POST by default).
 * The access log (status, every instance tried) gives the balancer's counts.
 */
export async function startNginxBalancer(nginx: string, upstreams: number[]): Promise<Balancer> {
  const dir = mkdtempSync(join(tmpdir(), "tally-nginx-"));
  for (const sub of ["body", "proxy"]) mkdirSync(join(dir, sub));
  const port = await freePort();
  const log = join(dir, "access.log");
  writeFileSync(
    join(dir, "nginx.conf"),
    `user root;
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log error;
events { worker_connections 4096; }
http {
  log_format tally '$status $upstream_addr';
  access_log ${log} tally;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  client_max_body_size 64m;
  upstream tally {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join("\n")}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://tally;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_next_upstream error timeout;
      proxy_connect_timeout 2s;
      proxy_read_timeout 60s;
      proxy_buffering off;
    }
  }
}
`,
  );
  execFileSync(nginx, ["-t", "-q", "-p", dir, "-c", join(dir, "nginx.conf")], { stdio: "pipe" });
  const child: ChildProcess = spawn(nginx, ["-p", dir, "-c", join(dir, "nginx.conf")], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (!(await fetch(`${url}/api/health-check`).then((r) => r.ok, () => false))) {
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`nginx did not answer on ${url}: ${readFileSync(join(dir, "error.log"), "utf8").slice(-1000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  const counts = (): BalancerCounts => {
    const c: BalancerCounts = { answered: upstreams.map(() => 0), retried: 0, failed: 0 };
    for (const line of readFileSync(log, "utf8").split("\n")) {
      if (!line) continue;
      const [status, ...tried] = line.split(/[ ,]+/);
      const last = tried[tried.length - 1] ?? "";
      const index = upstreams.findIndex((p) => last.endsWith(`:${p}`));
      if (tried.length > 1) c.retried++;
      if (index === -1 || status === "502" || status === "504") c.failed++;
      else c.answered[index] = (c.answered[index] ?? 0) + 1;
    }
    return c;
  };
  return {
    url,
    kind: "nginx",
    counts,
    close: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGQUIT");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
