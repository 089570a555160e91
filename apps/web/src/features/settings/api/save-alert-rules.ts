import type { AlertRules, AlertRulesBody } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** PUT /api/alert-rules (admins): the server re-evaluates every alert after saving. */
export function saveAlertRules(body: AlertRulesBody): Promise<AlertRules> {
  return apiRequest<AlertRules>("/alert-rules", { method: "PUT", body });
}

export function useSaveAlertRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAlertRules,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.alertRules });
      await queryClient.invalidateQueries({ queryKey: queryKeys.alerts.all });
    },
  });
}
