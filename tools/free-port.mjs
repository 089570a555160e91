// A free TCP port on 127.0.0.1 for a server a journey or the bench starts: plain JavaScript at
// the root, like chromium.mjs, so both workspaces import it.
import { createServer } from "node:net";

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}
