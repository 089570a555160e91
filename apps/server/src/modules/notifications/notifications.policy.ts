
// Which stored notifications concern a stream or a poll, and how streams are counted.

/**
 * A live token's sign-in began at its `iat`, which is whole seconds. A FORCE_LOGOUT stored in
 * that same second may have ended the sign-in before this token was issued (a quick sign-in
 * again), so a live token only takes notifications from the next second on: being signed out
 * for nothing is worse than hearing of it on the next request (which gets the guard's 401).
 */
export function liveSince(issuedAt: Date): Date {
  return new Date(issuedAt.getTime() + 1000);
}

/** The Last-Event-ID header as a notification id; anything else counts as absent. */
export function parseLastEventId(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}
