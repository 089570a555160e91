import type { AlertRulesBody, AlertRulesPreview } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

/** POST /api/alert-rules/preview (admins): how many students each rule would raise now; writes nothing. */
export function previewAlertRules(body: AlertRulesBody): Promise<AlertRulesPreview> {
  return apiRequest<AlertRulesPreview>("/alert-rules/preview", { method: "POST", body });
}

export function usePreviewAlertRules() {
  return useMutation({ mutationFn: previewAlertRules });
}
