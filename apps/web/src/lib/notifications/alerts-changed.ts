import type { Notification } from "@tally/contract";
import type { QueryClient } from "@tanstack/react-query";
import { queryKeys } from "../query-keys";

/**
 * ALERTS_CHANGED: alerts were evaluated for schools this user sees (an import landed, was undone,
 * flags were imported, the rules changed). Every alert query is marked stale: those on screen
 * (the list, the dashboard's card, the header's count, a student's alerts) are read again now,
 * the others when next shown.
 */
export function refreshAlertsOnChange(queryClient: QueryClient, notification: Notification): void {
  if (notification.type === "ALERTS_CHANGED") void queryClient.invalidateQueries({ queryKey: queryKeys.alerts.all });
}
