import { connect, type Socket } from "node:net";

// Raw TCP connections to a test app listening on 127.0.0.1, for the suites that count the
// server's connections (HTTP limits, idle connections).

/** A connection to `port` on 127.0.0.1 from `from` (a loopback source address), once established. */
export function openSocket(port: number, from = "127.0.0.1"): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress: from }, () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Everything the server sends on `socket` until the connection closes. */
export function socketAnswer(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    // A dropped connection may be reset rather than closed: what arrived is the answer.
    socket.on("error", () => {});
    socket.on("close", () => resolve(received));
  });
}
