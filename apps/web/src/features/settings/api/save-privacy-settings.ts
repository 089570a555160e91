import type { PrivacySettings } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function savePrivacySettings(body: PrivacySettings) {
  return apiRequest<PrivacySettings>("/settings/privacy", { method: "PUT", body });
}

export function useSavePrivacySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePrivacySettings,
    onSuccess: (reply) => queryClient.setQueryData(queryKeys.settings.privacy, reply),
  });
}
