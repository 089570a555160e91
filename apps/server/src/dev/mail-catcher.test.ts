import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer } from "../lib/mailer.js";
import { passwordResetMail } from "../modules/sessions/one-time-link-mails.js";
import { type MailCatcher, startMailCatcher } from "./mail-catcher.js";

let catcher: MailCatcher;
const printed: string[] = [];
beforeAll(async () => {
  catcher = await startMailCatcher({ port: 0, print: (line) => printed.push(line) });
});
afterAll(async () => {
  await catcher?.close();
});

describe("the development mail catcher", () => {
  it("prints each mail it receives, with its one-time link whole", async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${catcher.port}`,
      from: "Tally <no-reply@tally.local>",
      log: { info: () => {} },
    });
    const token = "A".repeat(20) + "_-" + "b".repeat(21);
    const mail = passwordResetMail("http://localhost:3000", "dev@example.test", "dev", token);
    await mailer.send(mail);
    await expect.poll(() => printed.length).toBe(1);
    expect(printed[0]).toContain("To:      dev@example.test");
    expect(printed[0]).toContain("Subject: Reset your Tally password");
    expect(printed[0]).toContain(`http://localhost:3000/set-password#token=${token}`);
  });
});
