/**
 * Loaded into the measured server process with `node --import`: what only the process itself
 * can see (its event loop, CPU time, garbage collections, heap) is measured between a
 * "probe-start" and a "probe-stop" message from the bench over the IPC channel.
 */
import { type ProbeReading, startProbe } from "./probe.js";

let stop: (() => ProbeReading) | null = null;

process.on("message", (message: { type?: string }) => {
  if (message.type === "probe-start") {
    stop = startProbe();
    process.send?.({ type: "probe-started" });
  } else if (message.type === "probe-stop" && stop) {
    const reading = stop();
    stop = null;
    process.send?.({ type: "probe-reading", reading });
  }
});
// The IPC channel must not keep a server that is told to stop alive.
process.channel?.unref();
