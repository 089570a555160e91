import { type AuditEntryView, type AuditListResponse, auditEntityText } from "@tally/contract";

// Issue 29: before/after as a readable list of what changed ("Role: School User → Admin"),
// schools and cohorts by name, instead of two blobs of JSON.

export type AuditNames = AuditListResponse["names"];

export interface ChangeLine {
  field: string;
  /** Undefined when there was nothing before (a creation) or after (a removal). */
  before?: string;
  after?: string;
}

const LABELS: Record<string, string> = {
  is_active: "Active",
  is_visible: "Visible",
  school_id: "School",
  schoolId: "School",
  school_ids: "Schools",
  schoolIds: "Schools",
  cohort_id: "Cohort",
  cohortId: "Cohort",
  teamId: "Team",
  email: "E-mail",
  enableExport: "Export enabled",
  enableStudentEditing: "Student editing enabled",
};

/** "first_name" → "First name", "weeklyDataRemoved" → "Weekly data removed". */
export function fieldLabel(key: string): string {
  const known = LABELS[key];
  if (known) return known;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_.]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const SCHOOL_KEYS = new Set(["school_id", "schoolId", "school_ids", "schoolIds"]);
const COHORT_KEYS = new Set(["cohort_id", "cohortId"]);
const ROLE_WORDS: Record<string, string> = {
  super_admin: "Super Admin",
  admin: "Admin",
  district_user: "District Admin",
  school_user: "School User",
};

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** One stored value in words; `key` tells a school or cohort id from a plain number. */
export function valueText(value: unknown, names: AuditNames, key = ""): string {
  if (value === null || value === undefined || value === "") return "none";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "number" && SCHOOL_KEYS.has(key)) return names.schools[String(value)] ?? `school ${value}`;
  if (typeof value === "number" && COHORT_KEYS.has(key)) return names.cohorts[String(value)] ?? `cohort ${value}`;
  if (typeof value === "string" && key === "role") return ROLE_WORDS[value] ?? value;
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.map((v) => valueText(v, names, key)).join(", ");
  // A report's filter as the export records it: { label: "School", value: "All schools" }.
  if (isRecord(value) && Object.keys(value).length === 2 && typeof value.label === "string" && "value" in value) {
    return `${value.label}: ${valueText(value.value, names)}`;
  }
  if (isRecord(value)) {
    return Object.entries(value)
      .map(([k, v]) => `${fieldLabel(k)}: ${valueText(v, names, k)}`)
      .join("; ");
  }
  return String(value);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields that changed, each with its value before and after, in words. */
export function auditChanges(before: unknown, after: unknown, names: AuditNames): ChangeLine[] {
  const hasBefore = before !== null && before !== undefined;
  const hasAfter = after !== null && after !== undefined;
  if ((isRecord(before) || !hasBefore) && (isRecord(after) || !hasAfter) && (hasBefore || hasAfter)) {
    const b = isRecord(before) ? before : {};
    const a = isRecord(after) ? after : {};
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
    return keys
      .filter((k) => !same(b[k], a[k]))
      .map((k) => ({
        field: fieldLabel(k),
        ...(k in b ? { before: valueText(b[k], names, k) } : {}),
        ...(k in a ? { after: valueText(a[k], names, k) } : {}),
      }));
  }
  // Lists (the cohort visibility rows) and single values: one line, whole.
  if (!hasBefore && !hasAfter) return [];
  return [{ field: "Value", ...(hasBefore ? { before: valueText(before, names) } : {}), ...(hasAfter ? { after: valueText(after, names) } : {}) }];
}

/** The kinds of entity whose id is a row that has a name (the others are settings, sends, exports). */
const NAMED_KINDS = new Set(["user", "school", "cohort", "student", "import_batch"]);
const SETTINGS_WORDS: Record<string, string | undefined> = { features: "Feature settings", demo: "Demo school settings" };

/** "User oak", "Import Week 4 of Autumn 2026"; an entity gone since by its kind (and id, to look it up). */
export function whatText(r: Pick<AuditEntryView, "entity" | "entityId" | "entityName">): string {
  const kind = auditEntityText(r.entity);
  if (r.entityName) return `${kind} ${r.entityName}`;
  if (r.entity === "settings" && r.entityId !== null) return SETTINGS_WORDS[r.entityId] ?? `${kind} ${r.entityId}`;
  if (NAMED_KINDS.has(r.entity) && r.entityId !== null) return `${kind} ${r.entityId} (no longer there)`;
  return kind;
}
