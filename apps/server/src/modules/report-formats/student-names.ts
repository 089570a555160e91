/** "Silva, Dmitri" → "Dmitri Silva"; other names as written, spaces collapsed. */
export function turnLastFirst(name: string): string {
  const collapsed = name.trim().replace(/\s+/g, " ");
  const comma = collapsed.indexOf(",");
  if (comma < 0) return collapsed;
  const last = collapsed.slice(0, comma).trim();
  const first = collapsed.slice(comma + 1).trim();
  return [first, last].filter(Boolean).join(" ");
}

/** The key that matches a name within a cohort: trimmed, lower-case, no accents, "Last, First" turned round. */
export function normaliseName(fullName: string): string {
  return turnLastFirst(fullName.normalize("NFD").replace(/\p{M}/gu, ""))
    .normalize("NFC")
    .toLowerCase();
}

/** The key that matches an e-mail: lower-case, trimmed; null when empty. */
export function normaliseEmail(email: string | null | undefined): string | null {
  const key = (email ?? "").trim().toLowerCase();
  return key === "" ? null : key;
}
