import type { AlertBulkBody, alertBulkResultSchema } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export type AlertBulkResult = z.infer<typeof alertBulkResultSchema>;

/** POST /api/alerts/bulk: one action on several alerts; those it cannot change come back as skipped. */
export function bulkAlerts(body: AlertBulkBody): Promise<AlertBulkResult> {
  return apiRequest<AlertBulkResult>("/alerts/bulk", { method: "POST", body });
}

export function useBulkAlerts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkAlerts,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.alerts.all }),
  });
}
