import type { ServerContext } from "../../context.js";

/**
 * Seeds the demo data into an empty database when DEMO_SEED allows it and prints the demo
 * sign-ins. Does nothing on a database that already has users.
 * (Placeholder until the demo seed lands.)
 */
export async function seedDemoOnFirstRun(_ctx: ServerContext, _print: (line: string) => void): Promise<void> {}
