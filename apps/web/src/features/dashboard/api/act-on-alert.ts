import type { Alert } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/**
 * The four follow-up actions share one shape (POST /api/alerts/:id/<action>), so one file:
 * acknowledge (no body), resolve { note }, dismiss { reason }, assign { userId }.
 */
export type AlertAction =
  | { action: "acknowledge" }
  | { action: "resolve"; note: string }
  | { action: "dismiss"; reason: string }
  | { action: "assign"; userId: number | null };

export function actOnAlert(alertId: number, act: AlertAction): Promise<Alert> {
  const { action, ...body } = act;
  return apiRequest<Alert>(`/alerts/${alertId}/${action}`, { method: "POST", body });
}

/** Every alert query is refreshed: the list, the dashboard's card and this student's tab. */
export function useActOnAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ alertId, act }: { alertId: number; act: AlertAction }) => actOnAlert(alertId, act),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.alerts.all }),
  });
}
