import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MESSAGES } from "@tally/contract";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { recordingIo } from "../../test/recording-io.js";
import { useTestDatabase } from "../../test/test-app.js";
import { main } from "../cli.js";
import { verifyPassword } from "../lib/password-hash.js";

describe("cli create-user", () => {
  const database = useTestDatabase();
  let dataDir: string;
  let schoolIds: number[];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "tally-cli-user-"));
    const schools = await database.db
      .insertInto("schools")
      .values([
        { name: "North High", district: "North" },
        { name: "South High", district: "South" },
      ])
      .returning("id")
      .execute();
    schoolIds = schools.map((s) => s.id);
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  const run = async (args: string[], extra = {}) => {
    const io = recordingIo(database, { env: { DATA_DIR: dataDir }, ...extra });
    const code = await main(["create-user", ...args], io);
    return { code, out: io.lines.join("\n"), err: io.errors.join("\n"), opened: io.opened };
  };
  const userNamed = (username: string) =>
    database.db.selectFrom("users").selectAll().where("username", "=", username).executeTakeFirst();

  test("creates a super_admin who can sign in with the given password", async () => {
    const r = await run(["--username", "root", "--email", "root@example.org", "--role", "super_admin", "--password", "Str0ng!Pass"]);
    expect(r).toMatchObject({ code: 0, err: "" });
    expect(r.out).toMatch(/^Created super_admin "root" <root@example.org> \(id \d+\)\.$/);
    const user = await userNamed("root");
    expect(user).toMatchObject({ role: "super_admin", email: "root@example.org", school_id: null, is_active: true, email_verified: true });
    expect(await verifyPassword(user?.password_hash ?? "", "Str0ng!Pass")).toBe(true);
  });

  test("creates school and district users with their schools", async () => {
    const [north, south] = schoolIds as [number, number];
    expect((await run(["--username", "teacher", "--email", "t@example.org", "--role", "school_user", "--school-id", String(north), "--password", "Str0ng!Pass"])).code).toBe(0);
    expect((await userNamed("teacher"))?.school_id).toBe(north);

    const r = await run(["--username", "area", "--email", "area@example.org", "--role", "district_user", "--school-ids", `${north}, ${south}`, "--password", "Str0ng!Pass"]);
    expect(r.code).toBe(0);
    const area = await userNamed("area");
    const access = await database.db.selectFrom("user_schools").select("school_id").where("user_id", "=", area?.id ?? -1).orderBy("school_id").execute();
    expect(access.map((a) => a.school_id)).toEqual([north, south]);
  });

  test("asks for the password twice on the terminal when --password is absent", async () => {
    const prompts: string[] = [];
    const readSecret = async (prompt: string) => {
      prompts.push(prompt);
      return "Typed!Pass1";
    };
    const r = await run(["--username", "typed", "--email", "typed@example.org", "--role", "admin"], { readSecret });
    expect(r.code).toBe(0);
    expect(prompts).toHaveLength(2);
    expect(await verifyPassword((await userNamed("typed"))?.password_hash ?? "", "Typed!Pass1")).toBe(true);

    let n = 0;
    const mismatch = await run(["--username", "typed2", "--email", "typed2@example.org", "--role", "admin"], {
      readSecret: async () => `Typed!Pass${n++}`,
    });
    expect(mismatch.code).toBe(2);
    expect(mismatch.err).toContain(MESSAGES.passwordsDoNotMatch);
    expect(await userNamed("typed2")).toBeUndefined();
  });

  test.each([
    [[], "--username is required."],
    [["--username", "x1", "--email", "x1@example.org"], "--role is required."],
    [["--username", "ab", "--email", "ab@example.org", "--role", "admin", "--password", "Str0ng!Pass"], `--username: ${MESSAGES.usernameTooShort}`],
    [["--username", "abc", "--email", "not-an-email", "--role", "admin", "--password", "Str0ng!Pass"], `--email: ${MESSAGES.invalidEmail}`],
    [["--username", "abc", "--email", "abc@example.org", "--role", "admin", "--password", "short"], `--password: ${MESSAGES.passwordTooShort}`],
    [["--username", "abc", "--email", "abc@example.org", "--role", "admin", "--password", "Password123!"], `--password: ${MESSAGES.passwordTooCommon}`],
    [["--username", "abc", "--email", "abc@example.org", "--role", "admin", "--password", "qwertyuiop"], `--password: ${MESSAGES.passwordTooCommon}`],
    [["--username", "abc", "--email", "abc@example.org", "--role", "owner", "--password", "Str0ng!Pass"], "--role must be one of super_admin, admin, district_user, school_user"],
    [["--username", "abc", "--email", "abc@example.org", "--role", "school_user", "--password", "Str0ng!Pass"], `--school-id: ${MESSAGES.selectSchool}`],
    [["--username", "abc", "--email", "abc@example.org", "--role", "district_user", "--password", "Str0ng!Pass"], `--school-ids: ${MESSAGES.selectSchools}`],
    [["--username", "abc", "--email", "abc@example.org", "--role", "school_user", "--school-id", "abc", "--password", "Str0ng!Pass"], "--school-id must be a whole number"],
    [["--username", "abc", "--email", "abc@example.org", "--role", "admin", "--school-id", "1", "--password", "Str0ng!Pass"], "--school-id is only for --role school_user."],
    [["--username", "abc", "--email", "abc@example.org", "--role", "admin", "--nickname", "x"], "Unknown option '--nickname'"],
    [["--username", "abc", "--email", "abc@example.org", "--role", "admin"], "--password is required when the command does not run in a terminal."],
  ])("rejects %j with a clear message and usage, exit code 2, before opening the database", async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(r.err).toContain("Usage: npm run cli -- <command>");
    expect(r.err).toContain("create-user --username U");
    expect(r.err).not.toMatch(/\n\s+at /);
    expect(r.opened).toBe(0);
  });

  test("refuses unknown schools and taken usernames or e-mails", async () => {
    const noSchool = await run(["--username", "ghost", "--email", "ghost@example.org", "--role", "school_user", "--school-id", "99999", "--password", "Str0ng!Pass"]);
    expect(noSchool).toMatchObject({ code: 2, err: "No school has id 99999." });
    await run(["--username", "taken", "--email", "taken@example.org", "--role", "admin", "--password", "Str0ng!Pass"]);
    const sameName = await run(["--username", "TAKEN", "--email", "other@example.org", "--role", "admin", "--password", "Str0ng!Pass"]);
    expect(sameName).toMatchObject({ code: 1, err: 'A user with the username "taken" already exists.' });
    const sameEmail = await run(["--username", "other", "--email", "Taken@Example.org", "--role", "admin", "--password", "Str0ng!Pass"]);
    expect(sameEmail).toMatchObject({ code: 1, err: "A user with the e-mail taken@example.org already exists." });
    expect(await userNamed("ghost")).toBeUndefined();
    expect(await userNamed("other")).toBeUndefined();
  });

  test("warns about a weak password but accepts it, as registration does", async () => {
    const r = await run(["--username", "weakling", "--email", "weak@example.org", "--role", "admin", "--password", "alllowercase"]);
    expect(r.code).toBe(0);
    expect(r.err).toContain("weak");
  });
});
