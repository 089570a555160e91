import type { SaveFeatureSettingsRequest, SaveFeatureSettingsResponse } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function saveFeatureSettings(body: SaveFeatureSettingsRequest) {
  return apiRequest<SaveFeatureSettingsResponse>("/settings/features", { method: "POST", body });
}

export function useSaveFeatureSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveFeatureSettings,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.settings.features.all }),
  });
}
