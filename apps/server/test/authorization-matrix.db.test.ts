import { beforeAll, describe, expect, it } from "vitest";
import { AUTHORIZATION_MATRIX, type Cell } from "./authorization-matrix.table.js";
import { askCell, type CellAnswer } from "./authorization-matrix.run.js";
import { buildMatrixWorld, CALLERS, type CallerKind, type MatrixWorld, TARGETS, type Target } from "./authorization-matrix.world.js";
import { useTestApp } from "./test-app.js";

// Every route under /api × every kind of caller × {own, another school's, nonexistent}
// resource, against the demo seed, each answer checked against AUTHORIZATION_MATRIX.

const t = useTestApp();
let world: MatrixWorld;
beforeAll(async () => {
  world = await buildMatrixWorld(t);
}, 120_000);

const registered = () =>
  t.routes
    .filter((r) => r.method !== "HEAD" && r.url.startsWith("/api/"))
    .map((r) => ({ method: r.method, url: r.url, key: `${r.method} ${r.url}` }));

/** Callers that see every school: another school's resource is in their scope. */
const ORGANISATION_WIDE = new Set<CallerKind>(["admin", "superAdmin"]);

/** Signing out ends the caller's own session, so it is asked last. */
const SIGN_OUT = "POST /api/auth/logout";

function targetsOf(cell: Cell): Target[] {
  if (typeof cell === "number") return [];
  return cell.length === 3 ? [...TARGETS] : ["own", "missing"];
}

describe("authorisation matrix", () => {
  it("has one row for every registered route, and no row for a route that is not there", () => {
    const keys = registered().map((r) => r.key);
    expect(keys.length).toBeGreaterThan(50);
    expect(keys.filter((k) => !(k in AUTHORIZATION_MATRIX))).toEqual([]);
    expect(Object.keys(AUTHORIZATION_MATRIX).filter((k) => !keys.includes(k))).toEqual([]);
  });

  it("answers every cell as the table says, and out of scope exactly as nonexistent", async () => {
    const routes = registered().filter((r) => r.key in AUTHORIZATION_MATRIX);
    const ordered = [...routes.filter((r) => r.key !== SIGN_OUT), ...routes.filter((r) => r.key === SIGN_OUT)];
    const wrong: string[] = [];
    let cells = 0;
    for (const route of ordered) {
      const row = AUTHORIZATION_MATRIX[route.key];
      if (!row) continue;
      for (const caller of CALLERS) {
        const cell = row.expect[caller];
        if (typeof cell === "number" || !row.resource) {
          const answer = await askCell(t, world, route, caller, undefined);
          cells++;
          if (answer.status !== cell) wrong.push(`${route.key} as ${caller}: ${answer.status} (table: ${cell}) ${answer.body.slice(0, 200)}`);
          continue;
        }
        const answers: Partial<Record<Target, CellAnswer>> = {};
        const statuses = cell as readonly number[];
        for (const [i, target] of targetsOf(cell).entries()) {
          const answer = await askCell(t, world, route, caller, { kind: row.resource, target });
          answers[target] = answer;
          cells++;
          if (answer.status !== statuses[i]) {
            wrong.push(`${route.key} as ${caller}, ${target}: ${answer.status} (table: ${statuses[i]}) ${answer.body.slice(0, 200)}`);
          }
        }
        // Where the table gives another school's resource the status of a missing one, the
        // bodies must match too: nothing may tell the caller that the row exists.
        const { other, missing } = answers;
        const scopeExcludesOther = !ORGANISATION_WIDE.has(caller);
        if (other && missing && scopeExcludesOther && statuses[1] === statuses[2] && other.body !== missing.body) {
          wrong.push(`${route.key} as ${caller}: another school's ≠ nonexistent:\n  ${other.body.slice(0, 300)}\n  ${missing.body.slice(0, 300)}`);
        }
      }
    }
    expect(cells).toBeGreaterThan(600);
    expect(wrong).toEqual([]);
  }, 300_000);
});
