import { Writable } from "node:stream";
import { MESSAGES } from "@tally/contract";
import type { FastifyInstance } from "fastify";
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildUser } from "../../../test/factories.js";
import { useTestDatabase } from "../../../test/test-app.js";
import { buildApp } from "../../app.js";
import { testConfig, testDatabaseUrl } from "../../config.js";
import type { ServerContext } from "../../context.js";
import { systemClock } from "../../lib/clock.js";
import type { MailMessage } from "../../lib/mailer.js";
import { settleBackgroundWork } from "../mail/background-mail.js";

/** Holds every query result the app's database returns while closed: a lookup that never ends. */
class DatabaseGate implements KyselyPlugin {
  held = 0;
  private gate: Promise<void> | undefined;
  private release: (() => void) | undefined;
  close() {
    this.gate = new Promise((resolve) => {
      this.release = resolve;
    });
  }
  open() {
    this.release?.();
    this.gate = undefined;
  }
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.gate) {
      this.held++;
      await this.gate;
    }
    return args.result;
  }
}

const gate = new DatabaseGate();
const sent: MailMessage[] = [];
let failMail = false;
const logLines: string[] = [];
const database = useTestDatabase();
let app: FastifyInstance;
let ctx: ServerContext;

beforeAll(async () => {
  ctx = {
    config: testConfig({ databaseUrl: testDatabaseUrl() }),
    database: { ...database, db: database.db.withPlugin(gate) },
    mailer: {
      kind: "smtp",
      async send(message) {
        if (failMail) throw new Error("mail server refused the message");
        sent.push(message);
      },
    },
    clock: systemClock,
  };
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  app = await buildApp({ ctx, webDist: "", logger: { level: "error", stream } });
  await app.ready();
});
afterAll(async () => {
  gate.open();
  await app?.close();
});

const forgot = (email: string) => app.inject({ method: "POST", url: "/api/auth/forgot-password", payload: { email } });
const resetTokensOf = (userId: number) =>
  database.db.selectFrom("one_time_tokens").select("id").where("user_id", "=", userId).execute();

describe("POST /api/auth/forgot-password does its work after answering", () => {
  it("answers while the account lookup is still blocked, then mails the link", { timeout: 15_000 }, async () => {
    const user = await buildUser(database.db, { role: "admin" });
    gate.close();
    try {
      const res = await forgot(user.email);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: MESSAGES.resetRequestSuccess });
      // The lookup has started and is still waiting: nothing done yet.
      await vi.waitFor(() => expect(gate.held).toBeGreaterThan(0));
      expect(await resetTokensOf(user.id)).toHaveLength(0);
      expect(sent).toHaveLength(0);
    } finally {
      gate.open();
    }
    await settleBackgroundWork(ctx);
    expect(await resetTokensOf(user.id)).toHaveLength(1);
    expect(sent.map((m) => m.to)).toEqual([user.email]);
  });

  it("logs a failure of the background work and never shows it to the client", async () => {
    const user = await buildUser(database.db, { role: "school_user" });
    failMail = true;
    try {
      const res = await forgot(user.email);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: MESSAGES.resetRequestSuccess });
      await settleBackgroundWork(ctx);
    } finally {
      failMail = false;
    }
    expect(logLines.join("\n")).toContain("mail server refused the message");
  });
});
