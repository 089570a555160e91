import { describe, expect, it } from "vitest";
import { buildUser } from "../../../test/factories.js";
import { useTestDatabase } from "../../../test/test-app.js";
import { listChanges, recordChange } from "./audit.service.js";

const database = useTestDatabase();

describe("audit log", () => {
  it("keeps who changed what from what to what, newest first", async () => {
    const db = database.db;
    const admin = await buildUser(db, { role: "admin" });
    const at = new Date("2026-11-20T10:00:00Z");
    await recordChange(db, { actorId: admin.id, action: "school.created", entity: "school", entityId: 7, before: null, after: { name: "A" }, at });
    await recordChange(db, {
      actorId: admin.id,
      action: "school.updated",
      entity: "school",
      entityId: 7,
      before: { name: "A" },
      after: { name: "B" },
      at: new Date(at.getTime() + 1000),
    });
    const rows = await listChanges(db, { entity: "school" });
    expect(rows.map((r) => [r.action, r.entity_id, r.actor_id, r.before, r.after])).toEqual([
      ["school.updated", "7", admin.id, { name: "A" }, { name: "B" }],
      ["school.created", "7", admin.id, null, { name: "A" }],
    ]);
  });

  it("rolls back with the transaction that made the change", async () => {
    const db = database.db;
    await db
      .transaction()
      .execute(async (trx) => {
        await recordChange(trx, { actorId: null, action: "cohort.created", entity: "cohort", entityId: null, before: null, after: 1, at: new Date() });
        throw new Error("rolled back");
      })
      .catch(() => {});
    expect(await listChanges(db, { entity: "cohort" })).toEqual([]);
  });
});
