import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import { normaliseName } from "../report-formats/student-names.js";
import { type DataScope, studentInScope } from "../scope/scope.js";

// "Did you mean …?": when a search finds nobody, the name in scope closest to what was typed.

/** How many names are compared at most: those sharing the start of a word of the search. */
const CANDIDATES = 400;

/** Edit distance (insert, delete, replace: one each). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const replace = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, replace));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The full name ("First Last") of the student in scope nearest to the search text, or null
 * when none is near (more than a third of its letters, at least 2, would have to change).
 * Candidates are the names whose key, either way round, starts with the first two letters of
 * a word of the search: index range scans (migration 018), never a pass over every student.
 */
export async function closestStudentName(db: DbExecutor, scope: DataScope, q: string): Promise<string | null> {
  const wanted = normaliseName(q);
  const starts = [...new Set(wanted.split(" ").filter((w) => w.length >= 2).map((w) => w.slice(0, 2)))];
  if (starts.length === 0) return null;
  const prefixes = starts.map((p) => `${p.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const either = sql.join(
    prefixes.map(
      (p) => sql`select c_n.id from students c_n where c_n.name_key like ${p}
        union select c_r.id from students c_r where c_r.name_key_reversed like ${p}`,
    ),
    sql` union `,
  );
  const rows = await db
    .selectFrom("students as s")
    .select(["s.first_name", "s.last_name"])
    .where(sql<boolean>`s.id in (${either})`)
    .where(studentInScope(scope, "s"))
    .limit(CANDIDATES)
    .execute();
  let best: { name: string; distance: number } | null = null;
  for (const r of rows) {
    const forward = normaliseName(`${r.first_name} ${r.last_name}`);
    const backward = normaliseName(`${r.last_name} ${r.first_name}`);
    const distance = Math.min(editDistance(wanted, forward), editDistance(wanted, backward));
    if (!best || distance < best.distance) best = { name: `${r.first_name} ${r.last_name}`.trim(), distance };
  }
  if (!best || best.distance > Math.max(2, Math.floor(wanted.length / 3))) return null;
  return best.name;
}
